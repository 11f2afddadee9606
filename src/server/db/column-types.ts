import type { ColumnType } from 'kysely';

/** Column types shared by the table types of db/schema*.ts. */
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
export type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
/** numeric columns come back as strings; written as strings or bigints. */
export type Numeric = ColumnType<string, string | bigint | number, string | bigint | number>;
/** bigint sums come back as numbers when safe (see db/client.ts), as strings otherwise. */
export type BigSum = ColumnType<number | string, number | bigint | string, number | bigint | string>;
