import { describe, expect, it } from 'vitest'
import { mockFetch } from '../test-utils'
import { api, ApiError, GENERIC_ERROR_MESSAGE } from './api-client'

describe('api client', () => {
  it('sends JSON with X-Agency-Request and same-origin credentials', async () => {
    const fetchMock = mockFetch(() => ({ status: 200, body: { ok: true } }))
    const result = await api.post<{ ok: boolean }>('/api/things', { name: 'Ada' })
    expect(result).toEqual({ ok: true })
    const [url, init] = fetchMock.mock.calls[0]!
    expect(url).toBe('/api/things')
    expect(init?.method).toBe('POST')
    expect(init?.credentials).toBe('same-origin')
    expect(init?.body).toBe('{"name":"Ada"}')
    const headers = init?.headers as Record<string, string>
    expect(headers['X-Agency-Request']).toBe('1')
    expect(headers['Content-Type']).toBe('application/json')
  })

  it('sends X-Agency-Request on GET too, without a body', async () => {
    const fetchMock = mockFetch(() => ({ status: 200, body: [] }))
    await api.get('/api/list')
    const init = fetchMock.mock.calls[0]![1]!
    expect(init.method).toBe('GET')
    expect(init.body).toBeUndefined()
    expect((init.headers as Record<string, string>)['X-Agency-Request']).toBe('1')
  })

  it('supports put, patch and delete', async () => {
    const fetchMock = mockFetch(() => ({ status: 204 }))
    await api.put('/api/a', { a: 1 })
    await api.patch('/api/a', { a: 2 })
    await api.delete('/api/a')
    expect(fetchMock.mock.calls.map((c) => c[1]?.method)).toEqual(['PUT', 'PATCH', 'DELETE'])
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
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 502, message: GENERIC_ERROR_MESSAGE })
  })

  it('uses the generic message for a network failure', async () => {
    mockFetch(() => {
      throw new TypeError('Failed to fetch')
    })
    await expect(api.get('/api/x')).rejects.toMatchObject({ status: 0, code: 'network_error', message: GENERIC_ERROR_MESSAGE })
  })
})
