import { packageBuild } from '../../tsup.package'

export default packageBuild(['src/index.ts', 'src/sdk-modules.ts'])
