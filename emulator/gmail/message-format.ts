import { base64urlPadded } from '../ids'
import type { StoredMessage } from './mail-store'
import type { MimeNode } from './mime-tree'

export type MessageFormat = 'minimal' | 'full' | 'raw' | 'metadata'

/** Gmail's MessagePart: the payload tree of format=full. */
export type MessagePart = {
  partId: string
  mimeType: string
  filename: string
  headers: { name: string; value: string }[]
  body: { size: number; data?: string; attachmentId?: string }
  parts?: MessagePart[]
}

const ATTACHMENT_PREFIX = 'ANGjdJ'

export function attachmentIdFor(messageId: string, partId: string): string {
  return `${ATTACHMENT_PREFIX}${Buffer.from(`${messageId}:${partId}:mailrow-emulator`).toString('base64url')}`
}

export function partIdFromAttachmentId(messageId: string, attachmentId: string): string | undefined {
  if (!attachmentId.startsWith(ATTACHMENT_PREFIX)) return undefined
  const decoded = Buffer.from(attachmentId.slice(ATTACHMENT_PREFIX.length), 'base64url').toString('utf8')
  const [id, partId] = decoded.split(':')
  return id === messageId ? partId : undefined
}

export function findPart(node: MimeNode, partId: string): MimeNode | undefined {
  if (node.partId === partId) return node
  for (const part of node.parts) {
    const found = findPart(part, partId)
    if (found) return found
  }
  return undefined
}

/** Parts with a filename are attachments: Gmail gives them an attachmentId instead of inline data. */
function toPart(node: MimeNode, messageId: string): MessagePart {
  const part: MessagePart = {
    partId: node.partId,
    mimeType: node.mimeType,
    filename: node.filename,
    headers: node.headers.map((header) => ({ name: header.name, value: header.value })),
    body: { size: node.body.length },
  }
  if (node.isMultipart) {
    part.body = { size: 0 }
    part.parts = node.parts.map((child) => toPart(child, messageId))
  } else if (node.filename) {
    part.body = { attachmentId: attachmentIdFor(messageId, node.partId), size: node.body.length }
  } else if (node.body.length > 0) {
    part.body = { size: node.body.length, data: base64urlPadded(node.body) }
  }
  return part
}

export function messageResource(message: StoredMessage, format: MessageFormat, metadataHeaders: string[] = []) {
  const resource: Record<string, unknown> = { id: message.id, threadId: message.threadId }
  if (message.labelIds.length) resource.labelIds = [...message.labelIds]
  if (message.snippet) resource.snippet = message.snippet
  if (format === 'full') resource.payload = toPart(message.tree, message.id)
  if (format === 'metadata') {
    const wanted = metadataHeaders.map((name) => name.toLowerCase())
    const headers = message.tree.headers.filter((header) => !wanted.length || wanted.includes(header.name.toLowerCase()))
    resource.payload = { mimeType: message.tree.mimeType, headers: headers.map((header) => ({ ...header })) }
  }
  resource.sizeEstimate = message.sizeEstimate
  if (format === 'raw') resource.raw = base64urlPadded(message.raw)
  resource.historyId = String(message.historyId)
  resource.internalDate = String(message.internalDate)
  return resource
}
