import { render } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { describe, expect, it } from 'vitest'
import { blogRenderCases } from '@test/blog-cases'
import type { BlogData } from './blog'
import { ArticleMissing, ArticleView, BlogList } from './BlogRegion'

function Region({ data }: { data: BlogData }) {
  if (data.kind === 'list') return <BlogList data={data.page} />
  if (data.kind === 'article') return <ArticleView article={data.article} />
  return <ArticleMissing />
}

describe('BlogRegion renders what the server writes (hydration needs the same DOM)', () => {
  it.each(blogRenderCases.map((c) => [c.name, c] as const))('%s', (_name, { data, html }) => {
    const { container } = render(
      <MemoryRouter>
        <Region data={data} />
      </MemoryRouter>,
    )
    const server = document.createElement('div')
    server.innerHTML = html
    // Same elements, attributes and text nodes, in the same order.
    expect(container.innerHTML).toBe(server.innerHTML)
    expect(container.isEqualNode(server)).toBe(true)
  })

  it('covers the list, its pages, an article and the missing page', () => {
    const names = blogRenderCases.map((c) => c.name)
    expect(names).toEqual(expect.arrayContaining(['list-empty', 'list-middle', 'article', 'missing']))
  })
})
