/** Has the browser save `text` as a file named `name` (what an "Export" button does). */
export function download(name: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.append(a)
  a.click()
  a.remove()
  // Revoked later: the download may not have read the blob yet when click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
