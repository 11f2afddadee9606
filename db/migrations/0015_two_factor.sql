-- Two-factor sign-in (issue 13): better-auth's two-factor plugin (TOTP with backup codes). The
-- secret and the backup codes are stored encrypted by better-auth under AUTH_SECRET.
alter table users add column two_factor_enabled boolean not null default false;
create table two_factors (
  id text primary key,
  secret text not null,
  backup_codes text not null,
  user_id text not null references users (id) on delete cascade,
  verified boolean not null default true,
  failed_verification_count integer not null default 0,
  locked_until timestamptz
);
create index two_factors_user_idx on two_factors (user_id);
