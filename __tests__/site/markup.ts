// Small, strict parsers for the tests (no parser dependency in the project):
// an HTML tokenizer that lists every tag and attribute the browser would see,
// and an XML parser that rejects anything not well-formed.

export interface Tag {
  name: string
  attrs: Array<[string, string]>
  end: boolean
}

const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title'])

function decodeEntities(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);?/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);?/g, (_, d: string) => String.fromCodePoint(parseInt(d, 10)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
}

/** Tokenize HTML the way the HTML5 tokenizer does for the constructs that matter here. */
export function htmlTags(html: string): Tag[] {
  const tags: Tag[] = []
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt < 0) break
    if (html.startsWith('<!--', lt)) {
      const e = html.indexOf('-->', lt + 4)
      i = e < 0 ? html.length : e + 3
      continue
    }
    if (html.startsWith('<!', lt) || html.startsWith('<?', lt)) {
      const e = html.indexOf('>', lt)
      i = e < 0 ? html.length : e + 1
      continue
    }
    const m = /^<(\/?)([A-Za-z][^\s/>]*)/.exec(html.slice(lt, lt + 64))
    if (!m) {
      i = lt + 1
      continue
    }
    const end = m[1] === '/'
    const name = m[2]!.toLowerCase()
    let j = lt + m[0].length
    const attrs: Array<[string, string]> = []
    for (;;) {
      while (j < html.length && /[\s/]/.test(html[j]!)) j++
      if (j >= html.length || html[j] === '>') break
      const an = /^[^\s/>=][^\s/>=]*/.exec(html.slice(j, j + 256))
      if (!an) break
      j += an[0].length
      let value = ''
      while (/\s/.test(html[j] ?? '')) j++
      if (html[j] === '=') {
        j++
        while (/\s/.test(html[j] ?? '')) j++
        const q = html[j]
        if (q === '"' || q === "'") {
          const e = html.indexOf(q, j + 1)
          value = html.slice(j + 1, e < 0 ? html.length : e)
          j = e < 0 ? html.length : e + 1
        } else {
          const v = /^[^\s>]*/.exec(html.slice(j))![0]
          value = v
          j += v.length
        }
      }
      attrs.push([an[0].toLowerCase(), decodeEntities(value)])
    }
    i = j + 1
    tags.push({ name, attrs, end })
    if (!end && RAW_TEXT.has(name)) {
      const close = html.toLowerCase().indexOf(`</${name}`, i)
      i = close < 0 ? html.length : close
    }
  }
  return tags
}

export interface XmlNode {
  name: string
  attrs: Record<string, string>
  children: XmlNode[]
  text: string
}

const NAME = /^[A-Za-z_:][A-Za-z0-9_:.-]*/
const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u

function xmlText(raw: string, where: number): string {
  if (raw.includes('<')) throw new Error(`raw < at ${where}`)
  const bad = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/.exec(raw)
  if (bad) throw new Error(`bad entity reference at ${where + bad.index}: ${raw.slice(bad.index, bad.index + 12)}`)
  if (raw.includes(']]>')) throw new Error(`]]> in text at ${where}`)
  return decodeEntities(raw)
}

/** Parse a well-formed XML document (no DTD) or throw saying where it is not. */
export function parseXml(xml: string): XmlNode {
  if (!XML_CHAR.test(xml)) throw new Error('document contains characters XML 1.0 forbids')
  let i = 0
  const skipMisc = () => {
    for (;;) {
      while (/\s/.test(xml[i] ?? '')) i++
      if (xml.startsWith('<?', i)) {
        const e = xml.indexOf('?>', i)
        if (e < 0) throw new Error('unterminated processing instruction')
        i = e + 2
      } else if (xml.startsWith('<!--', i)) {
        const e = xml.indexOf('-->', i)
        if (e < 0) throw new Error('unterminated comment')
        i = e + 3
      } else return
    }
  }
  const element = (): XmlNode => {
    if (xml[i] !== '<') throw new Error(`expected < at ${i}`)
    i++
    const nm = NAME.exec(xml.slice(i))
    if (!nm) throw new Error(`bad element name at ${i}`)
    const node: XmlNode = { name: nm[0], attrs: {}, children: [], text: '' }
    i += nm[0].length
    for (;;) {
      const ws = /^\s*/.exec(xml.slice(i, i + 100))![0]
      i += ws.length
      if (xml.startsWith('/>', i)) {
        i += 2
        return node
      }
      if (xml[i] === '>') {
        i++
        break
      }
      if (ws.length === 0) throw new Error(`expected whitespace before attribute at ${i}`)
      const an = NAME.exec(xml.slice(i, i + 200))
      if (!an) throw new Error(`bad attribute at ${i}: ${xml.slice(i, i + 20)}`)
      i += an[0].length
      if (xml[i] !== '=') throw new Error(`expected = at ${i}`)
      i++
      const q = xml[i]
      if (q !== '"' && q !== "'") throw new Error(`unquoted attribute at ${i}`)
      const e = xml.indexOf(q, i + 1)
      if (e < 0) throw new Error('unterminated attribute')
      if (an[0] in node.attrs) throw new Error(`duplicate attribute ${an[0]}`)
      node.attrs[an[0]] = xmlText(xml.slice(i + 1, e), i + 1)
      i = e + 1
    }
    for (;;) {
      const lt = xml.indexOf('<', i)
      if (lt < 0) throw new Error(`unclosed <${node.name}>`)
      node.text += xmlText(xml.slice(i, lt), i)
      i = lt
      if (xml.startsWith('</', i)) {
        const close = `</${node.name}`
        if (!xml.startsWith(close, i)) throw new Error(`mismatched end tag at ${i}: expected ${close}>`)
        i += close.length
        while (/\s/.test(xml[i] ?? '')) i++
        if (xml[i] !== '>') throw new Error(`bad end tag at ${i}`)
        i++
        return node
      }
      if (xml.startsWith('<!--', i)) {
        const e = xml.indexOf('-->', i)
        if (e < 0) throw new Error('unterminated comment')
        i = e + 3
      } else if (xml.startsWith('<![CDATA[', i)) {
        const e = xml.indexOf(']]>', i)
        if (e < 0) throw new Error('unterminated CDATA')
        node.text += xml.slice(i + 9, e)
        i = e + 3
      } else if (xml.startsWith('<!', i) || xml.startsWith('<?', i)) {
        throw new Error(`declaration inside element at ${i}`)
      } else {
        node.children.push(element())
      }
    }
  }
  skipMisc()
  if (xml.startsWith('<!DOCTYPE', i)) throw new Error('DTDs are not expected')
  const root = element()
  skipMisc()
  if (i !== xml.length) throw new Error(`content after the root element at ${i}`)
  return root
}

export function child(n: XmlNode, name: string): XmlNode | undefined {
  return n.children.find((c) => c.name === name)
}

/** All text of a node and its descendants. */
export function deepText(n: XmlNode): string {
  return n.text + n.children.map(deepText).join('')
}
