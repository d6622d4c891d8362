import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mockFetch, type FakeResponse } from '@test/utils'
import { MSG_TOPIC_REQUIRED, type Generation, type Idea } from './articles'
import { POLL_MS, progressOf, useGeneration } from './use-generation'

const IDEA: Idea = { title: 'Fast Clinics', description: 'Speed.', keywords: ['a', 'b', 'c'], outline: ['1', '2', '3'] }
const job = (over: Partial<Generation>): Generation => ({
  id: 'g1',
  kind: 'ideas',
  status: 'queued',
  topic: 'clinics',
  title: null,
  ideas: null,
  article_id: null,
  created_at: '2026-11-24T20:00:00Z',
  error: null,
  ...over,
})

/** The server: generation `g1` answers what `next()` gives, one answer per poll. */
function serve(start: Generation, next: () => FakeResponse) {
  return mockFetch((method, url) => {
    if (method === 'POST' && (url === '/api/admin/article-ideas' || url === '/api/admin/article-drafts')) return { status: 202, body: start }
    if (url === '/api/admin/generations/g1') return next()
    return { status: 404 }
  })
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe('useGeneration', () => {
  it('asks for a topic without calling the server, and keeps a running step', async () => {
    const fetchMock = serve(job({}), () => ({ status: 200, body: job({ status: 'running' }) }))
    const { result } = renderHook(() => useGeneration(() => {}))
    await act(() => result.current.generateIdeas('   '))
    expect(result.current.state.error).toBe(MSG_TOPIC_REQUIRED)
    expect(result.current.state.phase).toBe('idle')
    expect(fetchMock).not.toHaveBeenCalled()
    const first = result.current.state.attempt
    await act(() => result.current.generateIdeas(''))
    // The same message again is a new attempt (announced again).
    expect(result.current.state.attempt).toBeGreaterThan(first)
  })

  it('polls about once a second, keeps polling through dropped answers, and shows the progress growing', async () => {
    let polls = 0
    const answers: FakeResponse[] = [
      { status: 200, body: job({ status: 'running' }) },
      { status: 503, body: { error: { code: 'unavailable', message: 'Restarting.' } } },
      { status: 502 },
      { status: 200, body: job({ status: 'running' }) },
      { status: 200, body: job({ status: 'done', ideas: [IDEA, IDEA, IDEA] }) },
    ]
    serve(job({}), () => answers[Math.min(polls++, answers.length - 1)]!)
    const { result } = renderHook(() => useGeneration(() => {}))
    await act(async () => {
      void result.current.generateIdeas(' clinics ')
      await vi.advanceTimersByTimeAsync(0)
    })
    expect(result.current.state.phase).toBe('ideas')
    expect(result.current.state.topic).toBe('clinics')
    const seen: number[] = []
    for (let i = 0; i < 4; i++) {
      await act(() => vi.advanceTimersByTimeAsync(POLL_MS))
      seen.push(progressOf(result.current.state))
    }
    expect(seen.every((v, i) => i === 0 || v > seen[i - 1]!)).toBe(true)
    expect(result.current.state.error).toBeNull()
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 2))
    expect(result.current.state.phase).toBe('choosing')
    expect(result.current.state.ideas).toHaveLength(3)
    expect(progressOf(result.current.state)).toBe(0)
    expect(polls).toBe(5)
  })

  it('gives up after five dropped answers in a row with the message', async () => {
    serve(job({}), () => ({ status: 503, body: { error: { code: 'unavailable', message: 'The server is restarting.' } } }))
    const { result } = renderHook(() => useGeneration(() => {}))
    await act(async () => {
      void result.current.generateIdeas('clinics')
      await vi.advanceTimersByTimeAsync(POLL_MS * 6)
    })
    expect(result.current.state.phase).toBe('idle')
    expect(result.current.state.error).toBe('The server is restarting.')
  })

  it('reports the saved draft once, and a failure keeps the ideas to choose again', async () => {
    let outcome: 'done' | 'failed' = 'failed'
    serve(job({ kind: 'article' }), () => ({
      status: 200,
      body:
        outcome === 'done'
          ? job({ kind: 'article', status: 'done', article_id: 42 })
          : job({ kind: 'article', status: 'failed', error: 'The AI provider refused the key (401).' }),
    }))
    const saved = vi.fn()
    const { result } = renderHook(() => useGeneration(saved))
    await act(async () => {
      void result.current.writeArticle(IDEA)
      await vi.advanceTimersByTimeAsync(POLL_MS + 10)
    })
    expect(result.current.state.phase).toBe('choosing')
    expect(result.current.state.error).toBe('The AI provider refused the key (401).')
    expect(saved).not.toHaveBeenCalled()

    outcome = 'done'
    await act(async () => {
      void result.current.writeArticle(IDEA)
      await vi.advanceTimersByTimeAsync(0)
    })
    // A new generation clears the error box.
    expect(result.current.state.error).toBeNull()
    expect(result.current.state.phase).toBe('writing')
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS + 10))
    expect(result.current.state.phase).toBe('saved')
    expect(result.current.state.articleId).toBe(42)
    expect(saved).toHaveBeenCalledTimes(1)
    expect(saved).toHaveBeenCalledWith(42)
  })

  it('Start Over drops a step under way: its late answer changes nothing', async () => {
    let polls = 0
    serve(job({}), () => {
      polls += 1
      return { status: 200, body: job({ status: 'done', ideas: [IDEA] }) }
    })
    const { result } = renderHook(() => useGeneration(() => {}))
    await act(async () => {
      void result.current.generateIdeas('clinics')
      await vi.advanceTimersByTimeAsync(0)
    })
    act(() => result.current.startOver())
    await act(() => vi.advanceTimersByTimeAsync(POLL_MS * 3))
    expect(result.current.state.phase).toBe('idle')
    expect(result.current.state.ideas).toEqual([])
    expect(polls).toBe(0)
  })
})
