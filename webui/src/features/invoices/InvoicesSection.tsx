import { LoadState } from '../../components/dashboard/LoadState'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { useApiData } from '../../lib/use-api-data'
import { fetchInvoices, formatAmount, formatDay, invoiceStatusText, invoiceStatusTone, vatText, type Invoice } from './invoices'
import './invoices.css'

/** /dashboard/billing's "Invoices": every invoice and credit note from Stripe, newest first, with its links. */
export function InvoicesSection() {
  const invoices = useApiData('invoices', fetchInvoices)
  return (
    <section className="dash-section" aria-labelledby="invoices-title">
      <h2 id="invoices-title" className="dash-section__title">
        Invoices
      </h2>
      <LoadState state={invoices} loading="Loading your invoices" failed="We could not load your invoices.">
        {(data) =>
          data.invoices.length === 0 ? (
            <Card className="dash-card empty-state">
              <p className="empty-state__title">No invoices yet.</p>
              <p className="empty-state__text">Each payment's invoice appears here, with its PDF.</p>
            </Card>
          ) : (
            <div className="table-wrap card">
              <table className="data-table invoices-table">
                <thead>
                  <tr>
                    <th scope="col">Number</th>
                    <th scope="col">Date</th>
                    <th scope="col" className="data-table__num">
                      Amount
                    </th>
                    <th scope="col" className="data-table__num">
                      VAT
                    </th>
                    <th scope="col">Status</th>
                    <th scope="col">Documents</th>
                  </tr>
                </thead>
                <tbody>
                  {data.invoices.map((invoice) => (
                    <InvoiceRow key={invoice.id} invoice={invoice} />
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadState>
    </section>
  )
}

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  const credit = invoice.kind === 'credit_note'
  return (
    <tr className={credit ? 'invoices-table__credit' : undefined}>
      <td data-label="Number">
        <span className="invoices-table__cell">
          <span className="invoices-table__number">{invoice.number}</span>
          {credit && <span className="invoices-table__note">Credit note{invoice.corrects ? ` for ${invoice.corrects}` : ''}</span>}
          {!credit && invoice.description && <span className="invoices-table__note">{invoice.description}</span>}
        </span>
      </td>
      <td data-label="Date">{formatDay(invoice.issued_at)}</td>
      <td data-label="Amount" className="data-table__num">
        <span className="invoices-table__cell">
          {formatAmount(credit ? -invoice.gross : invoice.gross, invoice.currency)}
          {!credit && invoice.refunded > 0 && (
            <span className="invoices-table__note">{formatAmount(-invoice.refunded, invoice.currency)} refunded</span>
          )}
        </span>
      </td>
      <td data-label="VAT" className="data-table__num">
        {credit ? formatAmount(-invoice.vat, invoice.currency) : vatText(invoice)}
      </td>
      <td data-label="Status">
        <Badge tone={invoiceStatusTone(invoice.status)}>{invoiceStatusText(invoice.status)}</Badge>
      </td>
      <td data-label="Documents">
        <span className="invoices-table__links">
        {invoice.hosted_url && (
          <a href={invoice.hosted_url} target="_blank" rel="noopener noreferrer" aria-label={`View ${invoice.number}`}>
            View
          </a>
        )}
        {invoice.pdf_url && (
          <a href={invoice.pdf_url} target="_blank" rel="noopener noreferrer" aria-label={`PDF of ${invoice.number}`}>
            PDF
          </a>
        )}
        {invoice.e_invoice_url && (
          <a href={invoice.e_invoice_url} download aria-label={`E-invoice of ${invoice.number}`}>
            E-invoice
          </a>
        )}
        {invoice.e_invoice_url && (
          <a href={`${invoice.e_invoice_url}?format=pdf`} download aria-label={`E-invoice PDF of ${invoice.number}`}>
            E-invoice PDF
          </a>
        )}
        </span>
      </td>
    </tr>
  )
}
