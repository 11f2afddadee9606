import { cn } from '#web/lib/cn';
import {
  ChartColumn,
  ChevronDown,
  Gift,
  Inbox,
  KeyRound,
  LayoutDashboard,
  LogOut,
  MessageSquare,
  Package,
  ScrollText,
  Search,
  ShoppingCart,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { useId, useState } from 'react';
import { NavLink, matchPath, useFetcher, useLocation } from 'react-router';
import { BrandMark } from '#web/components/brand';
import { CloseButton } from '#web/components/ui/dialog';
import { paths } from '#web/config/paths';
import { useOutboxCounts } from '#web/features/admin/outbox/api/get-outbox';

interface AdminLink {
  label: string;
  to: string;
  icon: LucideIcon;
  /** Only the exact path is "current" (the dashboard would otherwise match every admin page). */
  end?: boolean;
}

interface AdminSection {
  title: string;
  links: AdminLink[];
}

export const adminSections: AdminSection[] = [
  {
    title: 'Overview',
    links: [
      { label: 'Dashboard', to: paths.admin.dashboard.getHref(), icon: LayoutDashboard, end: true },
      { label: 'Analytics', to: paths.admin.analytics.getHref(), icon: ChartColumn },
      { label: 'Audit Log', to: paths.admin.audit.getHref(), icon: ScrollText },
    ],
  },
  {
    title: 'Management',
    links: [
      { label: 'Products', to: paths.admin.products.getHref(), icon: Package },
      { label: 'Orders', to: paths.admin.orders.getHref(), icon: ShoppingCart },
      { label: 'Customers', to: paths.admin.customers.getHref(), icon: Users },
    ],
  },
  {
    title: 'Communication',
    links: [
      { label: 'Messages', to: paths.admin.messages.getHref(), icon: MessageSquare },
      { label: 'Outbox', to: paths.admin.outbox.getHref(), icon: Inbox },
    ],
  },
  {
    title: 'Features',
    links: [
      { label: 'Airdrops', to: paths.admin.airdrops.getHref(), icon: Gift },
      { label: 'Settings', to: paths.admin.settings.getHref(), icon: KeyRound },
    ],
  },
];

/** What the sign-out action answers when the server could not end the session. */
interface SignOutFailure {
  error?: { message: string };
}

function sectionOf(pathname: string): string | null {
  for (const section of adminSections) {
    if (section.links.some((l) => matchPath({ path: l.to, end: l.end ?? false }, pathname)))
      return section.title;
  }
  return null;
}

export interface AdminPanelProps {
  /** Small screens: one section open at a time, opened from its heading. */
  isCollapsible: boolean;
  /** Called when a link is chosen (closes the drawer). */
  onNavigate?: () => void;
  /** Shows a close button (in the drawer). */
  onClose?: () => void;
}

/** The admin navigation panel: title, quick search, sections of links, logout. */
export function AdminPanel({ isCollapsible, onNavigate, onClose }: AdminPanelProps) {
  const { pathname } = useLocation();
  const [expanded, setExpanded] = useState<string | null>(
    () => sectionOf(pathname) ?? adminSections[0]!.title,
  );
  const baseId = useId();
  // Mails that failed after every retry: counted beside the Outbox link.
  const failedMails = useOutboxCounts().data?.failed ?? 0;
  // Logout posts to the sign-out route (routes/sign-out.tsx): the server ends the session, then
  // sends to the admin sign-in page as a full page load (nothing of the admin session survives in
  // memory).
  const signOut = useFetcher<SignOutFailure>({ key: 'admin-sign-out' });

  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 shrink-0 items-center justify-between gap-3 px-5">
        <div className="flex items-center gap-2.5">
          <BrandMark className="size-7" />
          <h2 className="text-[15px] font-semibold tracking-tight text-stone-950">Admin Panel</h2>
        </div>
        {onClose ? <CloseButton onClick={onClose} label="Close menu" /> : null}
      </div>

      <div role="search" className="px-4 pb-3">
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-stone-400"
            aria-hidden="true"
          />
          <input
            type="search"
            aria-label="Quick search"
            placeholder="Quick search..."
            className="h-9 w-full rounded-lg border border-stone-200 bg-stone-50 pr-3 pl-9 text-sm text-stone-900 placeholder:text-stone-400 focus:border-rose-600 focus:bg-white focus:ring-4 focus:ring-rose-600/15 focus:outline-none"
          />
        </div>
      </div>

      <nav aria-label="Admin" className="flex-1 overflow-y-auto px-3 pt-2 pb-4">
        {adminSections.map((section) => {
          const isOpen = !isCollapsible || expanded === section.title;
          const listId = `${baseId}-${section.title}`;
          return (
            <div key={section.title} className="pt-3">
              {isCollapsible ? (
                <h3>
                  <button
                    type="button"
                    aria-expanded={isOpen}
                    aria-controls={listId}
                    onClick={() => setExpanded(isOpen ? null : section.title)}
                    className="flex h-9 w-full items-center justify-between rounded-lg px-2.5 text-xs font-semibold text-stone-500 hover:text-stone-900"
                  >
                    {section.title}
                    <ChevronDown
                      className={cn('size-4 transition-transform', isOpen && 'rotate-180')}
                      aria-hidden="true"
                    />
                  </button>
                </h3>
              ) : (
                <h3 className="px-2.5 pb-1.5 text-xs font-semibold text-stone-500">{section.title}</h3>
              )}
              <ul id={listId} hidden={!isOpen} className="space-y-0.5">
                {section.links.map(({ label, to, icon: Icon, end }) => (
                  <li key={to}>
                    <NavLink
                      to={to}
                      end={end}
                      onClick={onNavigate}
                      className={({ isActive }) =>
                        cn(
                          'flex h-9 items-center gap-3 rounded-lg px-2.5 text-sm font-medium transition-colors',
                          isActive
                            ? 'bg-rose-50 text-rose-700'
                            : 'text-stone-600 hover:bg-stone-100 hover:text-stone-950',
                        )
                      }
                    >
                      <Icon className="size-4" strokeWidth={1.75} aria-hidden="true" />
                      {label}
                      {to === paths.admin.outbox.getHref() && failedMails ? (
                        <span className="ml-auto rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-700 tabular-nums">
                          {failedMails}
                          <span className="sr-only"> failed</span>
                        </span>
                      ) : null}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          );
        })}
      </nav>

      <div className="border-t border-stone-200/80 p-3">
        {signOut.state === 'idle' && signOut.data?.error ? (
          <p role="alert" className="px-2.5 pb-2 text-xs font-medium text-red-600">
            {signOut.data.error.message}
          </p>
        ) : null}
        <signOut.Form method="post" action="/sign-out">
          <input type="hidden" name="to" value={paths.admin.login.getHref()} />
          <button
            type="submit"
            disabled={signOut.state !== 'idle'}
            className="flex h-9 w-full items-center gap-3 rounded-lg px-2.5 text-sm font-medium text-stone-600 transition-colors hover:bg-stone-100 hover:text-stone-950 disabled:opacity-60"
          >
            <LogOut className="size-4" strokeWidth={1.75} aria-hidden="true" />
            Logout
          </button>
        </signOut.Form>
      </div>
    </div>
  );
}
