import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { mockFetch, type FakeResponse } from '@test/utils'
import { ArticlePageSettings, COVER_MAX_BYTES, MSG_COVER_TOO_BIG } from './ArticlePageSettings'

type Cover = { url: string; srcset: string; width: number; height: number; alt: string }

const COVER: Cover = {
  url: '/api/blog/covers/0123456789abcdef0123456789abcdef-960.png',
  srcset: '/api/blog/covers/0123456789abcdef0123456789abcdef-480.png 480w, /api/blog/covers/0123456789abcdef0123456789abcdef-960.png 960w',
  width: 960,
  height: 540,
  alt: '',
}

function stored() {
  return {
    id: 7,
    title: 'Fast Sites',
    slug: 'fast-sites',
    meta_description: '',
    keywords: [],
    content: '<p>x</p>',
    body_format: 'html',
    source: '',
    status: 'draft',
    created_by: 2,
    created_at: '2026-11-23T10:00:00+00:00',
    updated_at: '2026-11-23T10:00:00+00:00',
    published_at: null,
    language: 'en',
    call_to_action: 'speed_test',
    cover: null as Cover | null,
    author: { name: 'Grace Hopper', bio: '' },
  }
}

/** The three endpoints the panel talks to, in memory; `upload` answers the cover POST. */
function fakeServer(upload?: FakeResponse) {
  let current = stored()
  return mockFetch((method, url, init) => {
    if (method === 'GET' && url === '/api/admin/articles/7') return { status: 200, body: current }
    if (method === 'PATCH' && url === '/api/admin/blog/articles/7') {
      const body = JSON.parse(String(init.body)) as Record<string, string>
      current = { ...current, language: body.language, call_to_action: body.call_to_action, cover: current.cover && { ...current.cover, alt: body.cover_alt } }
      return { status: 200, body: current }
    }
    if (url === '/api/admin/blog/articles/7/cover') {
      if (method === 'DELETE') {
        current = { ...current, cover: null }
        return { status: 200, body: current }
      }
      if (upload) return upload
      current = { ...current, cover: { ...COVER } }
      return { status: 200, body: current }
    }
    return { status: 404, body: { error: { code: 'not_found', message: 'Not found.' } } }
  })
}

function image(name = 'cover.png', size = 2048, type = 'image/png') {
  return new File([new Uint8Array(size)], name, { type })
}

async function loaded() {
  render(<ArticlePageSettings articleId={7} />)
  const form = screen.getByRole('form', { name: 'Article page' })
  await waitFor(() => expect(within(form).getByRole('button', { name: 'Save page settings' })).toBeEnabled())
  return form
}

afterEach(() => vi.unstubAllGlobals())

describe('ArticlePageSettings', () => {
  it('uploads a cover as multipart with the web UI header, shows it, then removes it', async () => {
    const fetchMock = fakeServer()
    const form = await loaded()
    expect(within(form).getByText('No cover image yet.')).toBeInTheDocument()

    await userEvent.upload(within(form).getByLabelText(/^Cover image \(JPEG/), image())
    expect(await within(form).findByText('The cover image was saved.')).toBeInTheDocument()
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/admin/blog/articles/7/cover' && init?.method === 'POST')
    expect(call).toBeDefined()
    const init = call![1] as RequestInit
    expect(init.body).toBeInstanceOf(FormData)
    expect((init.body as FormData).get('file')).toBeInstanceOf(File)
    expect((init.headers as Record<string, string>)['X-Agency-Request']).toBe('1')
    expect((init.headers as Record<string, string>)['Content-Type']).toBeUndefined() // the browser sets the boundary
    const preview = form.querySelector('img')!
    expect(preview).toHaveAttribute('src', COVER.url)
    expect(preview).toHaveAttribute('width', '960')
    expect(preview).toHaveAttribute('height', '540')

    await userEvent.click(within(form).getByRole('button', { name: 'Remove cover image' }))
    expect(await within(form).findByText('The cover image was removed.')).toBeInTheDocument()
    expect(within(form).getByText('No cover image yet.')).toBeInTheDocument()
    expect(within(form).queryByRole('button', { name: 'Remove cover image' })).not.toBeInTheDocument()
  })

  it('refuses a file over the limit before sending it', async () => {
    const fetchMock = fakeServer()
    const form = await loaded()
    await userEvent.upload(within(form).getByLabelText(/^Cover image \(JPEG/), image('big.jpg', COVER_MAX_BYTES + 1, 'image/jpeg'))
    expect(await within(form).findByRole('alert')).toHaveTextContent(MSG_COVER_TOO_BIG)
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/admin/blog/articles/7/cover')).toBe(false)
  })

  it("shows the server's message for an image it refuses", async () => {
    fakeServer({ status: 400, body: { error: { code: 'invalid', message: 'The image must be at least 200 by 200 pixels.' } } })
    const form = await loaded()
    await userEvent.upload(within(form).getByLabelText(/^Cover image \(JPEG/), image())
    expect(await within(form).findByRole('alert')).toHaveTextContent('The image must be at least 200 by 200 pixels.')
    expect(within(form).getByText('No cover image yet.')).toBeInTheDocument()
  })

  it('saves language, call to action and alt text with PATCH', async () => {
    const fetchMock = fakeServer()
    const form = await loaded()
    await userEvent.selectOptions(within(form).getByLabelText('Language'), 'de')
    await userEvent.selectOptions(within(form).getByLabelText('Call to action at the end'), 'start')
    await userEvent.type(within(form).getByLabelText('Cover image description (alt text)'), 'A clinic desk')
    await userEvent.click(within(form).getByRole('button', { name: 'Save page settings' }))
    expect(await within(form).findByText('The page settings were saved.')).toBeInTheDocument()
    const call = fetchMock.mock.calls.find(([url, init]) => url === '/api/admin/blog/articles/7' && init?.method === 'PATCH')
    expect(JSON.parse(String((call![1] as RequestInit).body))).toEqual({ language: 'de', call_to_action: 'start', cover_alt: 'A clinic desk' })
    expect(within(form).getByLabelText('Language')).toHaveValue('de')
    expect(within(form).getByLabelText('Call to action at the end')).toHaveValue('start')
  })
})
