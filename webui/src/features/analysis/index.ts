export { MESSAGES, MSG_BAD_DOMAIN, MSG_GENERIC, stripAnalysis, validAnalysisDomain } from './analysis'
export { AnalysisPage } from './AnalysisPage'
export { PreScan } from './PreScan'
