/**
 * Typed JSON client for the agency server's `/api/...` endpoints.
 *
 * Every request carries `X-Agency-Request: 1` (the server's CSRF guard requires it on
 * state-changing calls) and the session cookie (`credentials: 'same-origin'`).
 * Error responses have the shape `{"error": {"code", "message", "fields"?}}` and are
 * thrown as {@link ApiError}.
 */

export const GENERIC_ERROR_MESSAGE = 'Something went wrong. Please try again.'

export type FieldErrors = Record<string, string>

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly fields: FieldErrors | undefined

  constructor(status: number, code: string, message: string, fields?: FieldErrors) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.fields = fields
  }
}

interface ErrorBody {
  error: { code: string; message: string; fields?: FieldErrors }
}

function isErrorBody(value: unknown): value is ErrorBody {
  if (typeof value !== 'object' || value === null || !('error' in value)) return false
  const err = (value as { error: unknown }).error
  return (
    typeof err === 'object' &&
    err !== null &&
    typeof (err as { code?: unknown }).code === 'string' &&
    typeof (err as { message?: unknown }).message === 'string'
  )
}

function cleanFields(fields: unknown): FieldErrors | undefined {
  if (typeof fields !== 'object' || fields === null) return undefined
  const out: FieldErrors = {}
  for (const [key, val] of Object.entries(fields)) {
    if (typeof val === 'string') out[key] = val
  }
  return Object.keys(out).length > 0 ? out : undefined
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

async function request<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-Agency-Request': '1',
  }
  const init: RequestInit = { method, credentials: 'same-origin', headers }
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    init.body = JSON.stringify(body)
  }

  let response: Response
  try {
    response = await fetch(path, init)
  } catch {
    throw new ApiError(0, 'network_error', GENERIC_ERROR_MESSAGE)
  }

  let text = ''
  try {
    text = await response.text()
  } catch {
    throw new ApiError(response.status, 'network_error', GENERIC_ERROR_MESSAGE)
  }

  let data: unknown = undefined
  let parsed = text.length === 0
  if (text.length > 0) {
    try {
      data = JSON.parse(text)
      parsed = true
    } catch {
      parsed = false
    }
  }

  if (!response.ok) {
    if (isErrorBody(data)) {
      const { code, message, fields } = data.error
      throw new ApiError(response.status, code, message || GENERIC_ERROR_MESSAGE, cleanFields(fields))
    }
    throw new ApiError(response.status, `http_${response.status}`, GENERIC_ERROR_MESSAGE)
  }
  if (!parsed) {
    throw new ApiError(response.status, 'invalid_response', GENERIC_ERROR_MESSAGE)
  }
  return data as T
}

export const api = {
  get: <T>(path: string) => request<T>('GET', path),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, body),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, body),
}

/** Message to show for any thrown value (ApiError or otherwise). */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message
  return GENERIC_ERROR_MESSAGE
}
