import { describe, expect, it } from 'vitest'
import { createEmulator } from './emulator'
import { rawMessage } from './testing/harness'

describe('createEmulator without a port', () => {
  it('serves every route in-process through app.request', async () => {
    const emulator = createEmulator({ accounts: ['solo@mailrow.test'] })
    await emulator.ready
    const discovery = await emulator.app.request('/.well-known/openid-configuration')
    expect((await discovery.json()).issuer).toBe('https://accounts.google.com')

    const token = await emulator.app.request('/_control/tokens', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'solo@mailrow.test' }),
    })
    const { access_token: accessToken } = await token.json()
    const delivered = await emulator.deliver('solo@mailrow.test', rawMessage({ to: 'solo@mailrow.test', subject: 'In process' }))
    const list = await emulator.app.request('/gmail/v1/users/me/messages?q=subject:process', { headers: { Authorization: `Bearer ${accessToken}` } })
    expect(await list.json()).toMatchObject({ messages: [{ id: delivered.id }], resultSizeEstimate: 1 })
    emulator.stop()
  })

  it('answers 500 for a dropped write when there is no connection to cut', async () => {
    const emulator = createEmulator()
    await emulator.ready
    await emulator.app.request('/_control/faults', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ pathPattern: '/gmail/**', mode: 'drop-after-write' }),
    })
    const response = await emulator.app.request('/gmail/v1/users/me/profile')
    expect(response.status).toBe(500)
    const unknown = await emulator.app.request('/nowhere')
    expect(unknown.status).toBe(404)
    expect((await unknown.json()).error.status).toBe('NOT_FOUND')
  })
})
