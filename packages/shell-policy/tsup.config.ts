import { packageBuild } from '../../tsup.package'

export default packageBuild(['src/index.ts'])
