import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { checkIdentification, formatDay, formatDayTime, MSG_EMAIL, MSG_REASON, MSG_REFERENCE } from '../contracts'
import { mockFetch, mockSignedIn, renderApp, testUser } from '@test/utils'

const visitor = { status: 401, body: { error: { code: 'unauthorized', message: 'Not signed in.' } } }
const NEUTRAL = 'We could not find a contract for these details. Please check the e-mail address and the order number or domain, or write to us: we will help.'

describe('contracts', () => {
  it('checks both fields in the server words and writes dates as the e-mails do', () => {
    expect(checkIdentification({ email: '', reference: ' ' })?.fields).toEqual({ email: MSG_EMAIL, reference: MSG_REFERENCE })
    expect(checkIdentification({ email: 'max@mustermann', reference: 'AG-1' })?.fields).toEqual({
      email: 'Please enter a valid email address',
    })
    expect(checkIdentification({ email: 'ada@example.com', reference: 'AG-000042' })).toBeNull()
    expect(formatDay('2026-12-10')).toBe('10 December 2026')
    expect(formatDayTime('2026-11-26T14:05:00Z')).toBe('26 November 2026, 14:05 UTC')
  })

  it('/withdraw: a neutral refusal, then the confirmation step and the receipt', async () => {
    const calls: string[] = []
    mockFetch((method, url, init) => {
      if (method !== 'POST') return visitor
      const body = JSON.parse(String(init.body)) as { email: string }
      calls.push(`${url} ${body.email}`)
      if (body.email === 'eve@example.com') return { status: 404, body: { error: { code: 'no_matching_contract', message: NEUTRAL } } }
      const preview = { order_number: 'AG-000042', plan_name: 'Starter', domain: 'ada.example', ordered_on: '2026-11-26', deadline: '2026-12-10' }
      if (url === '/api/contracts/withdrawal/check') return { status: 200, body: preview }
      return { status: 201, body: { ...preview, received_at: '2026-11-26T14:05:00Z', message: 'Your withdrawal has reached us. We have e-mailed you a receipt.' } }
    })
    renderApp('/withdraw')
    expect(await screen.findByRole('heading', { level: 1, name: 'Withdraw from contract' })).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText(/E-mail address of the order/), 'eve@example.com')
    await userEvent.type(screen.getByLabelText(/Order number or website domain/), 'AG-000042')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText(NEUTRAL)).toBeInTheDocument()
    await userEvent.clear(screen.getByLabelText(/E-mail address of the order/))
    await userEvent.type(screen.getByLabelText(/E-mail address of the order/), 'ada@example.com')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('heading', { name: 'Confirm your withdrawal' })).toBeInTheDocument()
    expect(screen.getByText('10 December 2026')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Confirm withdrawal' }))
    expect(await screen.findByRole('status')).toHaveTextContent('received on 26 November 2026, 14:05 UTC')
    expect(calls).toEqual([
      '/api/contracts/withdrawal/check eve@example.com',
      '/api/contracts/withdrawal/check ada@example.com',
      '/api/contracts/withdrawal ada@example.com',
    ])
  })

  it('/cancel: shows when the subscription ends before cancelling', async () => {
    mockFetch((method, url) => {
      if (method !== 'POST') return visitor
      const preview = { plan_name: 'Starter', order_number: 'AG-000042', domain: 'ada.example', ends_on: '2026-12-26' }
      if (url === '/api/contracts/cancellation/check') return { status: 200, body: preview }
      return { status: 201, body: { ...preview, requested_at: '2026-11-26T14:05:00Z', message: 'Your cancellation is confirmed. We have e-mailed you a confirmation.' } }
    })
    renderApp('/cancel')
    expect(await screen.findByRole('heading', { level: 1, name: 'Cancel contracts here' })).toBeInTheDocument()
    await userEvent.type(screen.getByLabelText(/E-mail address of the order/), 'ada@example.com')
    await userEvent.type(screen.getByLabelText(/Order number or website domain/), 'ada.example')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByRole('heading', { name: 'Confirm your cancellation' })).toBeInTheDocument()
    expect(screen.getAllByText(/26 December 2026/).length).toBeGreaterThan(0)
    await userEvent.click(screen.getByRole('button', { name: 'Cancel now' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Your Starter subscription ends on 26 December 2026')
  })

  it('/cancel: an extraordinary cancellation needs its reason and sends it', async () => {
    const sent: unknown[] = []
    mockFetch((method, url, init) => {
      if (method !== 'POST') return visitor
      const preview = { plan_name: 'Starter', order_number: 'AG-000042', domain: null, ends_on: '2026-12-26' }
      if (url === '/api/contracts/cancellation/check') return { status: 200, body: preview }
      sent.push(JSON.parse(String(init.body)))
      return {
        status: 201,
        body: { ...preview, ends_on: null, kind: 'extraordinary', requested_at: '2026-11-26T14:05:00Z', message: 'Your extraordinary cancellation has reached us.' },
      }
    })
    renderApp('/cancel')
    await userEvent.type(await screen.findByLabelText(/E-mail address of the order/), 'ada@example.com')
    await userEvent.type(screen.getByLabelText(/Order number or website domain/), 'AG-000042')
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }))
    await screen.findByRole('heading', { name: 'Confirm your cancellation' })
    expect(screen.getByRole('radio', { name: /Ordinary: at the end of the current billing period, on 26 December 2026/ })).toBeChecked()
    await userEvent.click(screen.getByRole('radio', { name: /Extraordinary: for good cause/ }))
    await userEvent.click(screen.getByRole('button', { name: 'Cancel now' }))
    expect(screen.getByText(MSG_REASON, { selector: '.field__error' })).toBeInTheDocument()
    expect(sent).toEqual([])
    await userEvent.type(screen.getByLabelText('Reason for the extraordinary cancellation'), 'Never delivered.')
    await userEvent.click(screen.getByRole('button', { name: 'Cancel now' }))
    expect(await screen.findByRole('status')).toHaveTextContent('Your extraordinary cancellation of Starter was received on 26 November 2026, 14:05 UTC')
    expect(sent).toEqual([{ email: 'ada@example.com', reference: 'AG-000042', kind: 'extraordinary', reason: 'Never delivered.' }])
  })

  it('/dashboard/admin/contracts: lists both and marks a withdrawal handled', async () => {
    let status = 'received'
    const withdrawal = () => ({
      id: 7, order_number: 'AG-000042', plan_name: 'Starter', email: 'ada@example.com', domain: null,
      ordered_at: '2026-11-26T10:00:00Z', deadline: '2026-12-10', received_at: '2026-11-27T09:30:00Z', status,
    })
    const cancellation = {
      subscription_id: 'sub_1', plan_name: 'Professional', email: 'bob@example.com', status: 'received', ends_at: null,
      requested_at: '2026-11-27T10:00:00Z', kind: 'extraordinary', reason: 'Never delivered.', via: 'cancel_page',
    }
    mockSignedIn({ ...testUser, role: 'admin' }, (method, url) => {
      if (url === '/api/admin/contracts') return { status: 200, body: { withdrawals: [withdrawal()], cancellations: [cancellation] } }
      if (method === 'POST' && url === '/api/admin/contracts/withdrawals/7/handled') {
        status = 'handled'
        return { status: 200, body: withdrawal() }
      }
      return undefined
    })
    renderApp('/dashboard/admin/contracts')
    expect(await screen.findByText('Withdrawals (1)')).toBeInTheDocument()
    expect(screen.getByText('10 December 2026')).toBeInTheDocument()
    expect(screen.getByText('Extraordinary')).toBeInTheDocument()
    expect(screen.getByText('Never delivered.')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Mark handled' }))
    expect(await screen.findByText('handled')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Mark handled' })).not.toBeInTheDocument()
  })
})
