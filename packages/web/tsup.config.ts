// The worker that turns HTML into Markdown is its own entry: ./markdown.ts starts it from the
// file beside itself (dist/markdown-worker.js here).
import { packageBuild } from '../../tsup.package'

export default packageBuild(['src/index.ts', 'src/search/index.ts', 'src/markdown-worker.js'], {
  dts: { entry: ['src/index.ts', 'src/search/index.ts'], compilerOptions: { composite: false } },
})
