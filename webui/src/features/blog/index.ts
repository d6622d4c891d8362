export {
  embeddedBlogData,
  pageFromSearch,
  setDocumentLanguage,
  showArticleHead,
  type BlogData,
  type BlogPage,
  type PublishedArticle,
} from './blog'
export { ArticleMissing, ArticleView, BlogList, BlogRegion } from './BlogRegion'
export { ArticlePageSettings } from './ArticlePageSettings'
