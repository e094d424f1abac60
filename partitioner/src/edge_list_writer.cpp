// Placeholder: being written (write_edge_list).
