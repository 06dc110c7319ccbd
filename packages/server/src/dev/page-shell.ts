/** The host page's HTML; the bundled script builds everything inside `#app`. */
export const PAGE_SHELL = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>duet dev</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
:root{color-scheme:light dark;--bg:light-dark(#f6f6f8,#16161a);--panel:light-dark(#fff,#1f1f24);--fg:light-dark(#1b1b1f,#ececf1);--muted:light-dark(#666,#9a9aa5);--line:light-dark(#ddd,#34343c);--accent:#3b6fe0;--bad:#c0282d}
*{box-sizing:border-box}body{margin:0;font:14px/1.4 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;gap:12px;align-items:center;flex-wrap:wrap;padding:8px 12px;border-bottom:1px solid var(--line);background:var(--panel);position:sticky;top:0;z-index:12}
header h1{font-size:16px;margin:0 8px 0 0}label{display:inline-flex;gap:4px;align-items:center}
main{display:grid;grid-template-columns:300px 1fr 420px;gap:8px;padding:8px;min-height:calc(100vh - 50px)}
section{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding:8px;min-width:0;overflow:auto}
h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:8px 0 4px}
.server{margin-bottom:8px}.status{font-size:12px}.status.error{color:var(--bad)}.status.connected{color:#1e7a43}
.tool{display:block;width:100%;text-align:left;margin:2px 0;padding:4px 6px;border:1px solid var(--line);border-radius:4px;background:none;color:inherit;cursor:pointer}
.tool.selected{border-color:var(--accent)}.badge{font-size:11px;padding:0 4px;border-radius:3px;background:var(--accent);color:#fff;margin-left:4px}
.badge.apponly{background:#8a5a00}form.tool-form label{display:flex;flex-direction:column;align-items:stretch;margin:4px 0}
input,select,textarea{font:inherit;padding:3px;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:3px}
pre{white-space:pre-wrap;word-break:break-word;font:12px/1.35 ui-monospace,monospace;margin:0}
.entry{border-bottom:1px solid var(--line);padding:3px 0}.entry .dir{color:var(--muted);font-size:11px}
.error-banner{color:#fff;background:var(--bad);padding:6px 8px;border-radius:4px;margin:4px 0}
#stage{position:relative;margin:8px 0}#stage .frame-box{border:1px dashed var(--line);max-width:100%}
#stage iframe{border:0;width:100%;height:120px;display:block;background:transparent}
#stage .host-bar{display:none}
#stage.fullscreen .host-bar{display:flex;position:fixed;top:var(--fs-top,0px);left:0;right:0;height:36px;z-index:11;gap:8px;align-items:center;justify-content:space-between;padding:0 12px;background:var(--panel);border-bottom:1px solid var(--line)}
#stage.fullscreen .frame-box{position:fixed;top:calc(var(--fs-top,0px) + 36px);left:0;right:0;bottom:0;z-index:10;background:var(--bg);max-width:none!important;width:auto!important;border:0}
#stage.fullscreen iframe{height:calc(100vh - var(--fs-top,0px) - 36px)!important}
#stage.pip .frame-box{position:fixed;right:16px;bottom:16px;width:360px!important;z-index:10;box-shadow:0 8px 24px rgb(0 0 0/.3);background:var(--bg)}
details{margin:4px 0}summary{cursor:pointer;font-weight:600}
textarea{resize:vertical;max-height:60vh;overflow:auto}.code,textarea.code{font:12px/1.35 ui-monospace,monospace;tab-size:2}.args-bar{display:flex;justify-content:flex-end}
.trace-list{max-height:60vh;overflow:auto}.trace-bar{display:flex;gap:4px;flex-wrap:wrap;align-items:center;margin:4px 0}
.trace-head{display:flex;gap:6px;flex-wrap:wrap;align-items:baseline;font-size:12px}.trace-head .time{color:var(--muted);font:11px ui-monospace,monospace}
.trace-head .duration{color:var(--accent)}.trace-entry.failed{border-left:3px solid var(--bad);padding-left:4px}
.failed-tag{color:#fff;background:var(--bad);border-radius:3px;padding:0 4px;font-size:11px}.payload summary{font-weight:400;font-size:12px;color:var(--muted)}.preview{display:block;font:12px/1.35 ui-monospace,monospace;word-break:break-all}
.agent-inbox{max-height:40vh;overflow:auto}
.side-tabs{display:flex;gap:4px;margin-bottom:6px}.side-tabs button{flex:1;padding:4px;border:1px solid var(--line);border-radius:4px;background:none;color:inherit;cursor:pointer}.side-tabs button[aria-selected=true]{border-color:var(--accent);font-weight:600}
.content-text{max-height:60vh;overflow:auto}
.chat{display:flex;flex-direction:column;gap:6px;margin-bottom:12px}.chat-head{display:flex;gap:8px;align-items:baseline}.chat-model{font-size:12px;color:var(--muted)}
.chat-transcript{max-height:70vh;overflow:auto;display:flex;flex-direction:column;gap:6px}.chat-empty{color:var(--muted)}
.turn{display:flex;flex-direction:column;gap:4px;border-bottom:1px solid var(--line);padding-bottom:6px}
.bubble{padding:6px 8px;border-radius:8px;white-space:pre-wrap;max-width:90%}.bubble.user{align-self:flex-end;background:var(--accent);color:#fff}.bubble.user.from-view{background:#6a4fb3}.bubble.user .dir{color:#e6e6f0}
.bubble.assistant{align-self:flex-start;background:var(--bg);border:1px solid var(--line)}
.tool-call{border-left:3px solid var(--accent);padding-left:6px}.tool-call.failed{border-left-color:var(--bad)}.tool-call summary{font-weight:400;font-size:12px}
.chat-view{border:1px dashed var(--line);margin-top:4px}.chat-view iframe{border:0;width:100%;height:120px;display:block;background:transparent}
.usage{font-size:11px;color:var(--muted)}.composer{display:flex;gap:6px}.composer input{flex:1}
</style></head>
<body><div id="app"></div><script type="module" src="/host.js"></script></body></html>
`
