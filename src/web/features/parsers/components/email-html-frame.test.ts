import { describe, expect, it } from 'vitest'
import { emailDocument } from './email-html-frame'

const imgSrc = (doc: string) => doc.match(/img-src ([^;"]*)/)?.[1]?.trim()

describe('emailDocument', () => {
  it('lets only inline images load while remote images are hidden', () => {
    expect(imgSrc(emailDocument('<p>x</p>'))).toBe('data: cid:')
    expect(emailDocument('<p>x</p>')).toContain("default-src 'none'")
  })

  it('lets remote images load once the user shows them', () => {
    expect(imgSrc(emailDocument('<p>x</p>', { allowRemoteImages: true }))).toBe('data: cid: https: http:')
  })
})
