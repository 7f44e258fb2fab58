import { packageBuild } from '../../tsup.package'

export default packageBuild(['src/index.ts', 'src/coded-error.ts', 'src/testing.ts'])
