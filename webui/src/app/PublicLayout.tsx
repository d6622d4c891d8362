import { Suspense, type ReactNode } from 'react'
import { Footer } from '../components/layout/Footer'
import { Header } from '../components/layout/Header'
import { PageLoading } from '../components/layout/PageLoading'

/** `children` is the matched public page (see App.tsx). */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <div className="page-shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="page-main" tabIndex={-1}>
        <Suspense fallback={<PageLoading />}>
          {children}
        </Suspense>
      </main>
      <Footer />
    </div>
  )
}
