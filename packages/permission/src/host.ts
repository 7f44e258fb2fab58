// What the permission layer uses of the app: the tool registry and the file system (for real
// paths), taken once when the plugin is applied (see `untraced`). Types only, shared by the
// gate and the asking.
import type { FileSystem } from '@deepseek-ai/dsh-fs'
import type ToolRegistry from '@deepseek-ai/dsh-tools'

export interface PermissionHost {
  tools: ToolRegistry
  fs: FileSystem
}
