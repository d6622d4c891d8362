import { describe, expect, it } from 'vitest'
import { mockFetch } from '@test/utils'
import { api, ApiError, buildUrl, GENERIC_ERROR_MESSAGE, request } from './api-client'

describe('api client', () => {
  it('sends JSON with X-Agency-Request and same-origin credentials', async () => {
    const fetchMock = mockFetch(() => ({ status: 200, body: { ok: true } }))
    const result = await api.post('/api/auth/forgot-password', { email: 'ada@example.eu' })
    expect(result).toEqual({ ok: true })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/auth/forgot-password')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('same-origin')
    expect(init?.body).toBe('{"email":"ada@example.eu"}')
    const headers = init?.headers as Record<string, string>
    expect(headers['X-Agency-Request']).toBe('1')
    expect(headers['Content-Type']).toBe('application/json')
  })

  it('sends X-Agency-Request on GET too, without a body', async () => {
    const fetchMock = mockFetch(() => ({ status: 200, body: [] }))
    await api.get('/api/billing/orders')
    const init = fetchMock.mock.calls[0]![1]!
    expect(init.method).toBe('GET')
    expect(init.body).toBeUndefined()
    expect((init.headers as Record<string, string>)['X-Agency-Request']).toBe('1')
  })

  it('supports put, patch and delete', async () => {
    // The server has no PUT or DELETE route yet, so these go through the untyped request.
    const fetchMock = mockFetch(() => ({ status: 204 }))
    await request('PUT', '/api/a', { a: 1 })
    await api.patch('/api/account/profile', { first_name: 'Ada' })
    await request('DELETE', '/api/a')
    expect(fetchMock.mock.calls.map((c) => c[1]?.method)).toEqual(['PUT', 'PATCH', 'DELETE'])
  })

  it('answers undefined for an empty 204', async () => {
    mockFetch(() => ({ status: 204 }))
    await expect(api.post('/api/auth/logout')).resolves.toBeUndefined()
  })

  it('fills {x} in the path from params, URI-encoded', async () => {
    const fetchMock = mockFetch(() => ({ status: 200, body: { name: 'faq', title: 'FAQ', html: '' } }))
    await api.get('/api/pages/{name}', { params: { name: 'faq' } })
    await api.get('/api/billing/checkout/{session_id}', { params: { session_id: 'cs_1/2 ?' } })
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual(['/api/pages/faq', '/api/billing/checkout/cs_1%2F2%20%3F'])
  })

  it('appends the query string, dropping undefined and null values', async () => {
    const fetchMock = mockFetch(() => ({ status: 200, body: { leads: [] } }))
    await api.get('/api/admin/leads', { query: { source: 'free-preview & co', since: undefined } })
    await api.get('/api/admin/leads', { query: { source: null } })
    await api.get('/api/admin/leads')
    expect(fetchMock.mock.calls.map((c) => c[0])).toEqual([
      '/api/admin/leads?source=free-preview+%26+co',
      '/api/admin/leads',
      '/api/admin/leads',
    ])
  })

  it('turns the error shape into an ApiError with message and fields', async () => {
    mockFetch(() => ({
      status: 422,
      body: { error: { code: 'validation', message: 'Please check the form.', fields: { email: 'Enter a valid e-mail.' } } },
    }))
    const err = await api.post('/api/auth/signup', {}).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    const apiErr = err as ApiError
    expect(apiErr.status).toBe(422)
    expect(apiErr.code).toBe('validation')
    expect(apiErr.message).toBe('Please check the form.')
    expect(apiErr.fields).toEqual({ email: 'Enter a valid e-mail.' })
  })

  it('keeps the server message on 429', async () => {
    mockFetch(() => ({ status: 429, body: { error: { code: 'rate_limited', message: 'Too many attempts. Try again in a minute.' } } }))
    await expect(api.post('/api/auth/login', {})).rejects.toMatchObject({
      status: 429,
      code: 'rate_limited',
      message: 'Too many attempts. Try again in a minute.',
    })
  })

  it('uses the generic message for a non-JSON error', async () => {
    mockFetch(() => ({ status: 502, body: '<html>Bad gateway</html>' }))
    await expect(api.get('/api/catalogue')).rejects.toMatchObject({ status: 502, message: GENERIC_ERROR_MESSAGE })
  })

  it('uses the generic message for a network failure', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch')
    })
    await expect(api.get('/api/catalogue')).rejects.toMatchObject({
      status: 0,
      code: 'network_error',
      message: GENERIC_ERROR_MESSAGE,
    })
  })
})

describe('buildUrl', () => {
  it('leaves a path without placeholders or query alone', () => {
    expect(buildUrl('/api/catalogue')).toBe('/api/catalogue')
    expect(buildUrl('/api/catalogue', { query: {} })).toBe('/api/catalogue')
  })

  it('fills every placeholder and writes numbers and booleans as text', () => {
    expect(buildUrl('/api/{a}/x/{b}', { params: { a: 'é', b: 7 }, query: { n: 0, yes: true, no: false } })).toBe(
      '/api/%C3%A9/x/7?n=0&yes=true&no=false',
    )
  })
})

// Type-level tests: each line must fail to compile (tsc checks the test files too).
export function typeErrors() {
  // @ts-expect-error: not a path of the API
  void api.get('/api/nope')
  // @ts-expect-error: /api/leads has no GET
  void api.get('/api/leads')
  // @ts-expect-error: a field the request body does not have
  void api.post('/api/leads', { emial: 'ada@example.eu' })
  // @ts-expect-error: a field of the wrong type
  void api.post('/api/auth/login', { email: 'ada@example.eu', remember: 'yes' })
  // @ts-expect-error: the path has {name}, so params are required
  void api.get('/api/pages/{name}')
  // @ts-expect-error: a param the path does not have
  void api.get('/api/pages/{name}', { params: { slug: 'faq' } })
  // @ts-expect-error: /api/catalogue takes no query
  void api.get('/api/catalogue', { query: { source: 'x' } })
  // @ts-expect-error: the answer has no such field
  void api.get('/api/billing/subscription').then((data) => data.subscriptions)
  // The answer is typed from the schema:
  void api.get('/api/billing/subscription').then((data) => data.subscription?.plan_name satisfies string | null | undefined)
}
