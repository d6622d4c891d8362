/**
 * Typed JSON client for the agency server's `/api/...` endpoints.
 *
 * Paths, path parameters, query strings, request bodies and response bodies are typed from
 * `api-schema.d.ts`, which openapi-typescript generates from the server's `/openapi.json`
 * (`scripts/gen-api-types`; the test command fails when the committed copy is stale). The
 * types add no code to the bundle: at run time this is one small `fetch` wrapper.
 *
 * Every request carries `X-Agency-Request: 1` (the server's CSRF guard requires it on
 * state-changing calls) and the session cookie (`credentials: 'same-origin'`).
 * Error responses have the shape `{"error": {"code", "message", "fields"?}}` and are
 * thrown as {@link ApiError}.
 */
import type { paths } from './api-schema'

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

// ---- Types from the OpenAPI document ------------------------------------------------------

export type ApiPath = keyof paths
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete'

/** The paths that answer `method`. */
export type PathsWith<M extends HttpMethod> = {
  [P in ApiPath]: paths[P] extends Record<M, unknown> ? P : never
}[ApiPath]

type Operation<P extends ApiPath, M extends HttpMethod> = paths[P] extends Record<M, infer O> ? O : never
type JsonContent<R> = R extends { content: { 'application/json': infer B } } ? B : never
type SuccessStatus = 200 | 201 | 202

/** The JSON body of a successful answer (void when the route documents none, e.g. 204). */
export type ResponseBody<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { responses: infer R }
    ? [JsonContent<R[keyof R & SuccessStatus]>] extends [never]
      ? void
      : JsonContent<R[keyof R & SuccessStatus]>
    : never

/** The JSON request body (undefined when the route takes none). */
export type RequestBody<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { requestBody?: { content: { 'application/json': infer B } } } ? B : undefined

type PathParams<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { parameters: { path: infer X } } ? X : never
type QueryParams<P extends ApiPath, M extends HttpMethod> =
  Operation<P, M> extends { parameters: { query?: infer Q } } ? Q : never

/** `params` fills `{name}` in the path (required when the path has any); `query` the query string. */
export type RequestOptions<P extends ApiPath, M extends HttpMethod> = ([PathParams<P, M>] extends [never]
  ? { params?: never }
  : { params: PathParams<P, M> }) &
  ([QueryParams<P, M>] extends [never] ? { query?: never } : { query?: QueryParams<P, M> })

type OptionsArg<P extends ApiPath, M extends HttpMethod> = [PathParams<P, M>] extends [never]
  ? [options?: RequestOptions<P, M>]
  : [options: RequestOptions<P, M>]
type BodyArgs<P extends ApiPath, M extends HttpMethod> = [PathParams<P, M>] extends [never]
  ? [body?: RequestBody<P, M>, options?: RequestOptions<P, M>]
  : [body: RequestBody<P, M>, options: RequestOptions<P, M>]

// ---- Run time --------------------------------------------------------------------------

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

type ParamValue = string | number | boolean | null | undefined

export interface UrlParts {
  params?: Record<string, ParamValue> | undefined
  query?: Record<string, ParamValue> | undefined
}

/**
 * `path` with each `{name}` replaced by the URI-encoded `params.name`, and the defined
 * `query` values appended (undefined and null dropped).
 */
export function buildUrl(path: string, { params, query }: UrlParts = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params?.[name] ?? '')))
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.append(key, String(value))
  }
  const text = search.toString()
  return text ? `${filled}?${text}` : filled
}

/** The untyped request behind {@link api} (`url` complete). */
export async function request(method: Method, url: string, body?: unknown): Promise<unknown> {
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
    response = await fetch(url, init)
  } catch {
    throw new ApiError(0, 'network_error', GENERIC_ERROR_MESSAGE)
  }

  let text: string
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
  return data
}

/**
 * `api.get('/api/pages/{name}', { params: { name } })`, `api.post('/api/leads', body)`: the
 * path must be one the server documents for that method, and the body and the answer have
 * its types.
 */
export interface ApiClient {
  get<P extends PathsWith<'get'>>(path: P, ...options: OptionsArg<P, 'get'>): Promise<ResponseBody<P, 'get'>>
  post<P extends PathsWith<'post'>>(path: P, ...args: BodyArgs<P, 'post'>): Promise<ResponseBody<P, 'post'>>
  put<P extends PathsWith<'put'>>(path: P, ...args: BodyArgs<P, 'put'>): Promise<ResponseBody<P, 'put'>>
  patch<P extends PathsWith<'patch'>>(path: P, ...args: BodyArgs<P, 'patch'>): Promise<ResponseBody<P, 'patch'>>
  delete<P extends PathsWith<'delete'>>(path: P, ...args: BodyArgs<P, 'delete'>): Promise<ResponseBody<P, 'delete'>>
}

// The generated types guarantee what `options` holds; at run time it is just UrlParts.
function send(method: Method, path: string, body?: unknown, options?: object): Promise<never> {
  return request(method, buildUrl(path, options as UrlParts | undefined), body) as Promise<never>
}

function sender(method: Method) {
  return (path: string, body?: unknown, options?: object) => send(method, path, body, options)
}

export const api: ApiClient = {
  get: (path: string, options?: object) => send('GET', path, undefined, options),
  post: sender('POST'),
  put: sender('PUT'),
  patch: sender('PATCH'),
  delete: sender('DELETE'),
}

/** Message to show for any thrown value (ApiError or otherwise). */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message
  return GENERIC_ERROR_MESSAGE
}
