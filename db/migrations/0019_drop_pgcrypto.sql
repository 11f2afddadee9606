-- The shop calls no pgcrypto function (gen_random_uuid() is built into PostgreSQL 13 and later), so
-- the extension 0001 created goes: the embedded database then starts without loading pgcrypto's
-- code (about a third of the CPU it takes to open one). See docs/decisions/001-kysely-and-pglite.md.
drop extension if exists pgcrypto;
