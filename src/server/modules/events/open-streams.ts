/**
 * Live-event streams one app serves now: public ones and those of admin topics (the admins'
 * reserve). The events routes keep it; the app's metrics read it.
 */
export interface OpenStreams {
  public: number;
  admin: number;
}
