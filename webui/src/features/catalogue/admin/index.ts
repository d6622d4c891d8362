// The admins' catalogue page: its own surface, apart from the catalogue's index.ts, which the
// public pages import (nothing here may reach their first load).
export { default as AdminCataloguePage } from './AdminCatalogue'
