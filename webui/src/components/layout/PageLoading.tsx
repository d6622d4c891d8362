import { Spinner } from '../ui/Spinner'

/** Suspense fallback while a page chunk downloads. */
export function PageLoading() {
  return (
    <div className="page-loading">
      <Spinner label="Loading page" size="lg" />
    </div>
  )
}
