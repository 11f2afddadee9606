-- A customer's profile settings (issue 13 part 7): saved to the account so they follow the
-- customer to every device and prefill checkout. One row per user, created on first save.
create table customer_settings (
  user_id text primary key references users (id) on delete cascade,
  first_name text not null default '' check (char_length(first_name) <= 100),
  last_name text not null default '' check (char_length(last_name) <= 100),
  phone text not null default '' check (char_length(phone) <= 30),
  address text not null default '' check (char_length(address) <= 200),
  city text not null default '' check (char_length(city) <= 100),
  state text not null default '' check (char_length(state) <= 60),
  zip_code text not null default '' check (char_length(zip_code) <= 10),
  country text not null default '' check (char_length(country) <= 60),
  notify_email boolean not null default true,
  notify_sms boolean not null default false,
  notify_marketing boolean not null default true,
  updated_at timestamptz not null default now()
);
