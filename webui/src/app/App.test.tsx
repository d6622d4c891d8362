import { screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { mockVisitor, renderApp } from '@test/utils'

describe('App', () => {
  afterEach(() => {
    delete document.documentElement.dataset.hydrated
  })

  it('marks <html data-hydrated> once its first render has committed', async () => {
    mockVisitor()
    expect(document.documentElement.hasAttribute('data-hydrated')).toBe(false)
    renderApp('/')
    await screen.findAllByRole('heading', { level: 1 })
    expect(document.documentElement.hasAttribute('data-hydrated')).toBe(true)
  })
})
