#!/bin/sh
# The installed dsh-acp command. It starts Node from the V8 startup snapshot of the bundle
# (the program already evaluated; see snapshot.ts) when one was made for this Node binary and this
# install, and is newer than both (it was tried once when it was made); else the plain start,
# dist/bin.js, which makes one for the next start. Either way Node replaces this shell (exec):
# the editor's process is the agent.
DSH_ACP_COMMAND=$0
self=$0
case $self in */*) ;; *) self=./$self ;; esac
while [ -h "$self" ]; do
  link=$(readlink "$self")
  case $link in /*) self=$link ;; *) self=${self%/*}/$link ;; esac
done
# The install's own path, as the program sees it (npm's link is relative: bin/../lib/...).
here=$(cd -P -- "${self%/*}" && pwd) || exit 1
node=$(command -v node) || {
  echo 'dsh-acp: Node.js is not on PATH (node): install Node 20.19 or later.' >&2
  exit 127
}
case $XDG_CACHE_HOME in /*) cache=$XDG_CACHE_HOME ;; *) cache=$HOME/.cache ;; esac
DSH_ACP_NODE=$node
export DSH_ACP_NODE DSH_ACP_COMMAND
for blob in "$here/dsh-acp.blob" "$cache/dsh/dsh-acp.blob"; do
  if [ "$blob" -nt "$node" ] && [ "$blob" -nt "$here/dsh-acp.cjs" ] &&
    read -r stamp 2>/dev/null <"$blob.stamp" && [ "$stamp" = "$node|$here" ]; then
    exec "$node" --liftoff-only --snapshot-blob "$blob" "$here/bin.js" "$@"
  fi
done
exec "$node" "$here/bin.js" "$@"
