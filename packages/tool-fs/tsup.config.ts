import { packageBuild } from '../../tsup.package'

export default packageBuild(['src/index.ts', 'src/read-render.ts', 'src/image/index.ts'])
