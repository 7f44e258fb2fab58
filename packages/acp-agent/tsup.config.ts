import { packageBuild } from '../../tsup.package'

export default packageBuild(['src/index.ts', 'src/bin.ts', 'src/demo.ts'])
