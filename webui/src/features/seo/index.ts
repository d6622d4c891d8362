export { default as SeoArticlesPage } from './pages/SeoArticles'
