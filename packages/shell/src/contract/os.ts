// What the operating system says about a process group, read from /proc (Linux), so the
// contract never trusts a provider's own bookkeeping about what it ended (see ../group).
export { groupMembers } from '../group'
