import { useId, useState } from 'react'
import { DashPageHeader } from '../../../components/dashboard/DashPageHeader'
import { LoadState } from '../../../components/dashboard/LoadState'
import { buttonClass } from '../../../components/ui/Button'
import { Card } from '../../../components/ui/Card'
import { DownloadIcon } from '../../../components/icons/DownloadIcon'
import { cx } from '../../../lib/cx'
import { useApiData } from '../../../lib/use-api-data'
import {
  fetchVatReport,
  formatAmount,
  formatRate,
  kindText,
  quarterLabel,
  quarterOf,
  recentQuarters,
  vatReportCsvUrl,
  type VatReport,
} from '../invoices'
import '../invoices.css'

/** /dashboard/admin/vat (admins): the VAT report of a quarter, its tables and the CSV download. */
export default function AdminVatPage() {
  const selectId = useId()
  const [quarter, setQuarter] = useState(() => quarterOf(new Date()))
  const quarters = recentQuarters(new Date(), 12)
  const report = useApiData(`vat-${quarter}`, () => fetchVatReport(quarter))
  return (
    <div className="dash-page">
      <DashPageHeader
        heading="VAT report"
        text="Revenue and VAT per country and rate, the reverse-charge sales for the recapitulative statement, consumer sales for the One-Stop-Shop, and the €10,000 threshold."
      />
      <div className="vat-report__toolbar">
        <div className="field">
          <label className="field__label" htmlFor={selectId}>
            Quarter
          </label>
          <select id={selectId} className="input" value={quarter} onChange={(e) => setQuarter(e.target.value)}>
            {quarters.map((q) => (
              <option key={q} value={q}>
                {quarterLabel(q)}
              </option>
            ))}
          </select>
        </div>
        <a className={buttonClass({ variant: 'outline' })} href={vatReportCsvUrl(quarter)} download={`vat-${quarter}.csv`}>
          <DownloadIcon size={18} />
          Download CSV
        </a>
      </div>
      <LoadState state={report} loading="Loading the VAT report" failed="We could not load the VAT report.">
        {(data) => <Report report={data} />}
      </LoadState>
    </div>
  )
}

function Report({ report }: { report: VatReport }) {
  const threshold = report.threshold
  return (
    <div className="billing-stack">
      <Card className="dash-card">
        <h2 className="vat-report__heading">Revenue and VAT per country and rate</h2>
        <p className="vat-report__basis">{report.basis}</p>
        {report.rows.length === 0 ? (
          <p className="vat-report__empty">No sales in {report.quarter}.</p>
        ) : (
          <div className="table-wrap">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Country</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Kind</th>
                  <th scope="col" className="data-table__num">Net</th>
                  <th scope="col" className="data-table__num">VAT</th>
                  <th scope="col" className="data-table__num">Gross</th>
                  <th scope="col" className="data-table__num">Documents</th>
                </tr>
              </thead>
              <tbody>
                {report.rows.map((row) => (
                  <tr key={`${row.currency}-${row.country ?? ''}-${row.rate}-${row.kind}`}>
                    <td data-label="Country">{row.country ?? 'Unknown'}</td>
                    <td data-label="Rate">{formatRate(row.rate)}</td>
                    <td data-label="Kind">{kindText(row.kind)}</td>
                    <td data-label="Net" className="data-table__num">{formatAmount(row.net, row.currency)}</td>
                    <td data-label="VAT" className="data-table__num">{formatAmount(row.vat, row.currency)}</td>
                    <td data-label="Gross" className="data-table__num">{formatAmount(row.gross, row.currency)}</td>
                    <td data-label="Documents" className="data-table__num">{row.documents}</td>
                  </tr>
                ))}
                {report.totals.map((total) => (
                  <tr key={`total-${total.currency}`} className="vat-report__total">
                    <td data-label="Country">Total</td>
                    <td data-label="Rate" />
                    <td data-label="Kind" />
                    <td data-label="Net" className="data-table__num">{formatAmount(total.net, total.currency)}</td>
                    <td data-label="VAT" className="data-table__num">{formatAmount(total.vat, total.currency)}</td>
                    <td data-label="Gross" className="data-table__num">{formatAmount(total.gross, total.currency)}</td>
                    <td data-label="Documents" />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {report.unlinked_refunds > 0 && (
          <p className="vat-report__basis">Refunds without a stored invoice (not above): {formatAmount(-report.unlinked_refunds)}</p>
        )}
      </Card>
      <Card className="dash-card">
        <h2 className="vat-report__heading">Reverse-charge sales to EU businesses (recapitulative statement)</h2>
        {report.reverse_charge.length === 0 ? (
          <p className="vat-report__empty">No reverse-charge sales in {report.quarter}.</p>
        ) : (
          <div className="table-wrap">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">VAT ID</th>
                  <th scope="col">Country</th>
                  <th scope="col">Customer</th>
                  <th scope="col" className="data-table__num">Net</th>
                  <th scope="col" className="data-table__num">Documents</th>
                </tr>
              </thead>
              <tbody>
                {report.reverse_charge.map((row) => (
                  <tr key={`${row.vat_id}-${row.currency}`}>
                    <td data-label="VAT ID">{row.vat_id}</td>
                    <td data-label="Country">{row.country}</td>
                    <td data-label="Customer">{row.name ?? '—'}</td>
                    <td data-label="Net" className="data-table__num">{formatAmount(row.net, row.currency)}</td>
                    <td data-label="Documents" className="data-table__num">{row.documents}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Card className="dash-card">
        <h2 className="vat-report__heading">Consumer sales to other EU countries (One-Stop-Shop)</h2>
        {report.oss.length === 0 ? (
          <p className="vat-report__empty">No consumer sales to other EU countries in {report.quarter}.</p>
        ) : (
          <div className="table-wrap">
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">Country</th>
                  <th scope="col">Rate</th>
                  <th scope="col" className="data-table__num">Net</th>
                  <th scope="col" className="data-table__num">VAT</th>
                </tr>
              </thead>
              <tbody>
                {report.oss.map((row) => (
                  <tr key={`${row.country}-${row.rate}-${row.currency}`}>
                    <td data-label="Country">{row.country}</td>
                    <td data-label="Rate">{formatRate(row.rate)}</td>
                    <td data-label="Net" className="data-table__num">{formatAmount(row.net, row.currency)}</td>
                    <td data-label="VAT" className="data-table__num">{formatAmount(row.vat, row.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className={cx('vat-report__threshold', threshold.exceeded && 'vat-report__threshold--exceeded')}>{threshold.line}</p>
      </Card>
    </div>
  )
}
