/** The purchase entry URL of a landing-page call to action: `/start?type=...&plan=...`. */
export function startUrl(type: string, plan?: string): string {
  const query = `type=${encodeURIComponent(type)}`
  return plan ? `/start?${query}&plan=${encodeURIComponent(plan)}` : `/start?${query}`
}
