// The system prompt's section for the web tools: commands have no network, these tools do.

export const webPrompt = (search: boolean) => `## The web (web_fetch${search ? ', web_search' : ''})
- Commands run without network access: curl, wget, git clone, pip or npm installs from the network fail there.
  Use these tools to reach the web instead.
- web_fetch reads one page by URL (http or https) as Markdown; long pages are clipped, and the note says so.
  Fetch the pages the person names, documentation, changelogs and migration guides.
- Local and private addresses (localhost, 10.x, 192.168.x, cloud metadata) are refused unless the person
  allowed them. A redirect to another host is reported: fetch the new URL yourself if it is what you want.
- The person may be asked before the first fetch from each host.${
  search
    ? `
- web_search finds pages: up to 3 queries at once; it returns titles, URLs and snippets. Fetch the
  promising results with web_fetch before relying on them, and cite the URLs you used.`
    : ''
}`
