// What the permission layer uses of the app: the tool registry, the file system (for real
// paths) and the event bus (to ask), taken once when the plugin is applied (see `untraced`).
// Types only, shared by the gate and the asking.
import type { FileSystem } from '@deepseek-ai/dsh-fs'
import type { EventBus } from '@deepseek-ai/dsh-tools'
import type ToolRegistry from '@deepseek-ai/dsh-tools'

export interface PermissionHost {
  tools: ToolRegistry
  fs: FileSystem
  events: EventBus
}
