import { describe, expect, it } from 'vitest'
import { base64Size, readableText } from '../../src/dev/page/content-view.js'
import { expandTemplate, templateVariables } from '../../src/dev/page/uri-template.js'

describe('resource templates in the dev page (RFC 6570)', () => {
  it('names every variable once, in order, across operators', () => {
    expect(templateVariables('books://{book}/chapters/{chapter}{?lang,page}{#frag}')).toEqual(['book', 'chapter', 'lang', 'page', 'frag'])
    expect(templateVariables('file:///{+path}/{path}')).toEqual(['path'])
    expect(templateVariables('static://no-vars')).toEqual([])
  })

  it('expands simple, reserved, path, query and fragment expressions as the RFC examples do', () => {
    const v = { var: 'value', hello: 'Hello World!', path: '/foo/bar', x: '1024', y: '768' }
    expect(expandTemplate('{var}', v)).toBe('value')
    expect(expandTemplate('{hello}', v)).toBe('Hello%20World%21')
    expect(expandTemplate('{+path}/here', v)).toBe('/foo/bar/here')
    expect(expandTemplate('{#path}', v)).toBe('#/foo/bar')
    expect(expandTemplate('map?{x,y}', v)).toBe('map?1024,768')
    expect(expandTemplate('{/var,x}/here', v)).toBe('/value/1024/here')
    expect(expandTemplate('{;x,y}', v)).toBe(';x=1024;y=768')
    expect(expandTemplate('{?x,y}', v)).toBe('?x=1024&y=768')
    expect(expandTemplate('?fixed=yes{&x}', v)).toBe('?fixed=yes&x=1024')
    expect(expandTemplate('{.var}', v)).toBe('.value')
    expect(expandTemplate('{var:3}', v)).toBe('val')
  })

  it('leaves empty variables out, like undefined ones', () => {
    expect(expandTemplate('search{?q,lang}', { q: 'duet', lang: '' })).toBe('search?q=duet')
    expect(expandTemplate('search{?q}', {})).toBe('search')
  })

  it('refuses a template with an unclosed brace or a bad variable name, saying which', () => {
    expect(() => templateVariables('books://{book')).toThrow(/'\{' without its '\}'/)
    expect(() => templateVariables('books://{bo ok}')).toThrow(/bad variable "bo ok"/)
  })
})

describe('how the dev page shows resource contents', () => {
  it('sizes base64 blobs without decoding them', () => {
    expect(base64Size(Buffer.from('abcd').toString('base64'))).toBe(4)
    expect(base64Size(Buffer.from('abcde').toString('base64'))).toBe(5)
    expect(base64Size(Buffer.from('abcdef').toString('base64'))).toBe(6)
  })

  it('indents JSON, breaks one-line HTML at tags, and leaves other text (and bad JSON) as it is', () => {
    expect(readableText('{"a":[1]}', 'application/json')).toBe('{\n  "a": [\n    1\n  ]\n}')
    expect(readableText('{"a":', 'application/json')).toBe('{"a":')
    expect(readableText('<p>a</p> <p>b</p>', 'text/html;profile=mcp-app')).toBe('<p>a</p>\n<p>b</p>')
    expect(readableText('<p>\n</p><p>', 'text/html')).toBe('<p>\n</p><p>')
    expect(readableText('<p>x</p><p>', 'text/plain')).toBe('<p>x</p><p>')
  })
})
