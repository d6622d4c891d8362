/**
 * The blog's server markup for given data (written by scripts/dump_blog_render_cases.py with
 * the server's renderer; tests/blog/test_render_cases.py keeps it fresh).
 */
import table from './fixtures/blog-render-cases.json'
import type { BlogData } from '../src/features/blog'

export interface BlogRenderCase {
  name: string
  data: BlogData
  html: string
}

export const blogRenderCases = table as unknown as readonly BlogRenderCase[]
