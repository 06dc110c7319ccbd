/** An error from `duet dev`, with a stable code a test or the page can branch on. */
export class DevError extends Error {
  constructor(readonly code: string, message: string) {
    super(message)
    this.name = 'DevError'
  }
}
