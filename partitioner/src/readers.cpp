// Placeholder: being written (readers for edge list, wel, mtx, gzip).
