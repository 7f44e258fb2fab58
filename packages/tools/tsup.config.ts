import { packageBuild } from '../../tsup.package'

export default packageBuild([
  'src/index.ts',
  'src/coded-error.ts',
  'src/config.ts',
  'src/testing.ts',
])
