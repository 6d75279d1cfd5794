// SafeHandles that own the C handles: the runtime frees them exactly once, also when a
// Game or State is finalized without Dispose.
using System;
using System.Runtime.InteropServices;

namespace Kassen
{
    /// <summary>A C handle (NULL is invalid), freed by the subclass's ReleaseHandle.</summary>
    public abstract class KassenHandle : SafeHandle
    {
        protected KassenHandle() : base(IntPtr.Zero, true) { }
        public override bool IsInvalid { get { return handle == IntPtr.Zero; } }
    }

    /// <summary>Owns a kassen_game; released with kassen_game_free.</summary>
    public sealed class GameHandle : KassenHandle
    {
        protected override bool ReleaseHandle() { Native.kassen_game_free(handle); return true; }
    }

    /// <summary>Owns a kassen_batch; released with kassen_batch_free.</summary>
    public sealed class BatchHandle : KassenHandle
    {
        protected override bool ReleaseHandle() { Native.kassen_batch_free(handle); return true; }
    }

    /// <summary>Owns a kassen_bot; released with kassen_bot_free.</summary>
    public sealed class BotHandle : KassenHandle
    {
        protected override bool ReleaseHandle() { Native.kassen_bot_free(handle); return true; }
    }

    /// <summary>Owns a kassen_search; released (stopped and joined) with kassen_search_free.</summary>
    public sealed class SearchHandle : KassenHandle
    {
        protected override bool ReleaseHandle() { Native.kassen_search_free(handle); return true; }
    }

    /// <summary>Owns a kassen_state; released with kassen_state_free.</summary>
    public sealed class StateHandle : KassenHandle
    {
        protected override bool ReleaseHandle() { Native.kassen_state_free(handle); return true; }
    }
}
