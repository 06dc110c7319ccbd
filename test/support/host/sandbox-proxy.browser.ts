// A double-iframe sandbox proxy as web hosts run it: it lives on its own origin, receives the
// view's HTML from the host, renders it in an inner frame and relays messages both ways unchanged.
const hostOrigin = document.referrer ? new URL(document.referrer).origin : ''
const inner = document.createElement('iframe')
inner.sandbox.value = 'allow-scripts allow-same-origin allow-forms'
inner.style.cssText = 'border: 0; width: 100%; height: 100%; display: block'
document.body.style.margin = '0'
document.documentElement.style.height = document.body.style.height = '100%'
document.body.appendChild(inner)

window.addEventListener('message', (e) => {
  if (e.source === window.parent && e.origin === hostOrigin) {
    const data = e.data as any
    if (data?.method === 'ui/notifications/sandbox-resource-ready') {
      inner.srcdoc = String(data.params?.html ?? '')
      return
    }
    inner.contentWindow?.postMessage(data, '*')
  } else if (e.source === inner.contentWindow) {
    window.parent.postMessage(e.data, hostOrigin)
  }
})

window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin)
