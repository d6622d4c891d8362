export { SeoArticlesPage as default } from '../../features/seo'
