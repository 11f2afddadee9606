import {
  flexRender,
  getCoreRowModel,
  useReactTable,
  type ColumnDef,
  type RowData,
} from '@tanstack/react-table';
import { Table, TableBody, TableHead, TableRow, Td, Th } from '#web/components/ui/table';

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the names must match the library's declaration
  interface ColumnMeta<TData extends RowData, TValue> {
    /** Classes of the column's <th>. */
    headerClassName?: string;
    /** Classes of each of the column's <td>s. */
    cellClassName?: string;
  }
}

export type DataColumn<T> = ColumnDef<T>;

export interface DataTableProps<T> {
  /** The table's accessible name (and its scroll region's). */
  label: string;
  minWidth?: string;
  className?: string;
  columns: DataColumn<T>[];
  data: T[];
  getRowId: (row: T) => string;
  /** A row's own classes; left out, the usual hover row. */
  rowClassName?: (row: T) => string;
}

/** A column-driven admin table: each column says its header, its cell and their classes. */
export function DataTable<T>({
  label,
  minWidth,
  className,
  columns,
  data,
  getRowId,
  rowClassName,
}: DataTableProps<T>) {
  // eslint-disable-next-line react-hooks/incompatible-library -- the table is rebuilt from props on each render
  const table = useReactTable({ data, columns, getCoreRowModel: getCoreRowModel(), getRowId });
  return (
    <Table label={label} minWidth={minWidth} className={className}>
      <TableHead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <Th key={header.id} className={header.column.columnDef.meta?.headerClassName}>
                {header.isPlaceholder
                  ? null
                  : flexRender(header.column.columnDef.header, header.getContext())}
              </Th>
            ))}
          </tr>
        ))}
      </TableHead>
      <TableBody>
        {table.getRowModel().rows.map((row) => {
          const cells = row.getVisibleCells().map((cell) => (
            <Td key={cell.id} className={cell.column.columnDef.meta?.cellClassName}>
              {flexRender(cell.column.columnDef.cell, cell.getContext())}
            </Td>
          ));
          return rowClassName ? (
            <tr key={row.id} className={rowClassName(row.original)}>
              {cells}
            </tr>
          ) : (
            <TableRow key={row.id}>{cells}</TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
