export { AdminCataloguePage as default } from '../../features/catalogue/admin'
