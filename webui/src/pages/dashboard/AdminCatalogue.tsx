// Placeholder while the page is being built (issue 28); replaced by the feature's page.
export default function AdminCataloguePlaceholder() {
  return <p>Coming soon.</p>
}
