// Tests of bindings/csharp under Mono over every registered game: complete games (with and
// without explicit chance), every error the binding raises (state unchanged after each),
// views and events parsed, save/load, no allocation per step (ApplyStep and Batch.Step too),
// ApplyStep against ApplyAction + LegalActions, the view envelope (to_act.seat, terminal,
// returns, winners), NUL characters in strings rejected, SVG, batch episodes replayed by
// states, the golden playthroughs' final hashes, and the package's version against the library's.
// Usage: mono TestKassen.exe GOLDEN_LIST PACKAGE_JSON   (GOLDEN_LIST: lines
// "game<TAB>config<TAB>seed<TAB>hash<TAB>a,b,..."). Last line: "N passed, M failed".
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Kassen;

static class TestKassen
{
    static int passed, failed;

    static void Check(bool cond, string what)
    {
        if (cond) { passed++; return; }
        failed++;
        Console.Error.WriteLine("CHECK failed: " + what);
    }

    static void Throws(int code, Action call, string what)
    {
        try
        {
            call();
            failed++;
            Console.Error.WriteLine(what + ": did not throw");
        }
        catch (KassenException e)
        {
            bool ok = e.Code == code && e.LibraryMessage.Length > 0 && e.StatusName == Kassen.Kassen.StatusName(code);
            if (ok) passed++;
            else { failed++; Console.Error.WriteLine(what + ": threw " + e.Message + ", expected " + Kassen.Kassen.StatusName(code)); }
        }
    }

    static ulong rng;
    static ulong Next()
    {
        rng ^= rng >> 12; rng ^= rng << 25; rng ^= rng >> 27;
        return rng * 2685821657736338717UL;
    }

    static List<string> GameIds()
    {
        var ids = new List<string>();
        foreach (var g in (List<object>)Json.Parse(Kassen.Kassen.GamesJson()))
            ids.Add((string)((Dictionary<string, object>)g)["id"]);
        return ids;
    }

    static void Play(string id, bool explicitChance, ulong seed)
    {
        using (var game = new Game(id, explicitChance ? "{\"explicit_chance\": true}" : null))
        using (var state = game.NewInitialState(seed))
        {
            var info = (Dictionary<string, object>)Json.Parse(game.InfoJson());
            Check((string)info["id"] == id, id + ": info id");
            int players = game.NumPlayers;
            var legal = new uint[game.NumDistinctActions];
            var mask = new byte[game.NumDistinctActions];
            var obs = new float[game.ObservationLength];
            var seen = new int[players + 1];
            rng = seed * 7919 + 1;
            int steps = 0;
            bool ok = true;
            while (!state.IsTerminal)
            {
                int p = state.CurrentPlayer;
                if (p == Kassen.Kassen.Chance)
                {
                    var outcomes = state.ChanceOutcomes();
                    double x = (Next() >> 11) / 9007199254740992.0, acc = 0;
                    ok &= outcomes.Length > 0 && Math.Abs(outcomes.Sum(o => o.Probability) - 1) < 1e-9;
                    uint pick = outcomes[outcomes.Length - 1].Action;
                    foreach (var o in outcomes) { acc += o.Probability; if (x < acc) { pick = o.Action; break; } }
                    state.ApplyActionAs(Kassen.Kassen.Chance, pick);
                }
                else
                {
                    int n = state.LegalActions(legal);
                    ok &= n > 0 && state.LegalActionsMask(mask) == mask.Length;
                    ok &= state.ObservationTensor(p, obs) == obs.Length;
                    uint a = legal[(int)(Next() % (ulong)n)];
                    ok &= mask[a] == 1;
                    if (steps % 17 == 0)
                    {
                        using (var child = state.Child(a))
                        {
                            state.ApplyActionAs(p, a);
                            ok &= child.Equals(state);
                        }
                    }
                    else state.ApplyAction(a);
                }
                steps++;
                if (steps % 5 == 0)
                {
                    // Poll events as a frontend does; each event names the step that caused it.
                    for (int o = -1; o < players; o++)
                    {
                        var tail = (List<object>)Json.Parse(state.EventsSinceJson(o, (ulong)seen[o + 1]));
                        foreach (var e in tail) ok &= ((Dictionary<string, object>)e).ContainsKey("step");
                        seen[o + 1] += tail.Count;
                    }
                }
            }
            Check(ok, id + ": every step");
            Check(steps > 0, id + ": steps");
            Check(state.CurrentPlayer == Kassen.Kassen.Terminal, id + ": terminal player");
            Check(state.LegalActions(legal) == 0, id + ": no legal actions at the end");
            var returns = state.Returns();
            Check(returns.Length == players, id + ": returns");
            for (int o = -1; o < players; o++)
            {
                var events = (List<object>)Json.Parse(state.EventsJson(o));
                Check(events.Count >= seen[o + 1], id + ": events cover the polled ones");
                Check(((List<object>)Json.Parse(state.EventsSinceJson(o, 1UL << 30))).Count == 0, id + ": no events past the end");
                var view = (Dictionary<string, object>)Json.Parse(state.ViewJson(o));
                Check(view.Count > 0, id + ": view is a non-empty object");
            }
            using (var loaded = State.FromJson(state.ToJson()))
            {
                Check(loaded.Equals(state) && loaded.StableHash() == state.StableHash(), id + ": save and load");
                Check(loaded.History().SequenceEqual(state.History()), id + ": history");
                Check(loaded.Game.NumPlayers == players, id + ": loaded game");
            }
            using (var copy = state.Clone())
                Check(copy.Equals(state), id + ": clone");
            Console.WriteLine("{0}{1} seed {2}: {3} steps, hash {4}", id, explicitChance ? " (explicit chance)" : "", seed, steps, state.StableHash());
        }
    }

    static void Errors(string id)
    {
        Throws(100, () => new Game("no_such_game"), "unknown game");
        Throws(101, () => new Game(id, "{"), "malformed config");
        Throws(103, () => new Game(id, "{\"no_such_key\": 1}"), "unknown config key");
        Throws(305, () => new Game(id, "{\"data\": {}}"), "invalid component data");
        using (var game = new Game(id))
        using (var state = game.NewInitialState(3))
        {
            ulong before = state.StableHash();
            string saved = state.ToJson();
            int p = state.CurrentPlayer;
            uint[] legal = state.LegalActions();
            var mask = new byte[game.NumDistinctActions];
            state.LegalActionsMask(mask);
            uint illegal = (uint)Array.IndexOf(mask, (byte)0);
            uint n = (uint)game.NumDistinctActions;
            Throws(200, () => state.ApplyAction(illegal), "illegal action");
            Throws(200, () => state.Child(illegal), "illegal child");
            Throws(201, () => state.ApplyAction(n), "action out of range");
            Throws(202, () => state.ApplyActionAs((p + 1) % game.NumPlayers, legal[0]), "not your turn");
            Throws(204, () => state.ApplyActionAs(Kassen.Kassen.Chance, legal[0]), "not a chance node");
            Throws(205, () => state.ApplyActionAs(99, legal[0]), "invalid player (apply)");
            Throws(205, () => state.ViewJson(99), "invalid player (view)");
            Throws(205, () => state.EventsJson(-2), "invalid player (events)");
            Throws(205, () => state.ObservationTensor(99, new float[game.ObservationLength]), "invalid player (tensor)");
            Throws(201, () => state.ActionToString(n), "describe out of range");
            Throws(201, () => state.ActionToJson(n), "describe out of range (json)");
            if (legal.Length > 1) Throws(3, () => state.LegalActions(new uint[1]), "small legal buffer");
            Throws(3, () => state.LegalActionsMask(new byte[1]), "small mask buffer");
            Throws(3, () => state.ObservationTensor(0, new float[1]), "small tensor buffer");
            Throws(3, () => state.Returns(new double[1]), "small returns buffer");
            if (legal.Length > 0) Throws(3, () => state.LegalActions(null), "null buffer: the count only");
            Throws(300, () => State.FromJson("{"), "malformed save");
            Throws(301, () => State.FromJson(saved.Replace("kassen.state/1", "kassen.state/9")), "unsupported format");
            Throws(302, () => State.FromJson(saved.Replace("\"game\":\"" + id + "\"", "\"game\":\"no_such_game\"")), "unknown game in save");
            Throws(303, () => State.FromJson(saved.Replace("\"rules_version\":\"", "\"rules_version\":\"x")), "rules version");
            Throws(304, () => State.FromJson("{\"no_such_field\":1," + saved.Substring(1)), "invalid state");
            Check(state.StableHash() == before && state.ToJson() == saved, id + ": failures leave the state unchanged");
            Check(state.LegalActions().SequenceEqual(legal), id + ": same legal actions");
            Check(state.ActionToString(legal[0]).Length > 0, id + ": describe");
            Check(Json.Parse(state.ActionToJson(legal[0])) is Dictionary<string, object>, id + ": describe as JSON");
            using (var over = game.NewInitialState(4))
            {
                while (!over.IsTerminal) over.ApplyAction(over.LegalActions()[0]);
                ulong final = over.StableHash();
                Throws(203, () => over.ApplyAction(0), "game over");
                Check(over.StableHash() == final, id + ": finished state unchanged");
            }
            var disposed = state.Clone();
            disposed.Dispose();
            try { disposed.ApplyAction(legal[0]); failed++; Console.Error.WriteLine("disposed state used"); }
            catch (ObjectDisposedException) { passed++; }
        }
    }

    // The per-step calls allocate nothing on the managed heap once warm.
    static void NoAllocationPerStep(string id)
    {
        using (var game = new Game(id))
        using (var state = game.NewInitialState(5))
        {
            var legal = new uint[game.NumDistinctActions];
            var mask = new byte[game.NumDistinctActions];
            var obs = new float[game.ObservationLength];
            var returns = new double[game.NumPlayers];
            int steps = 0;
            long allocated = 0;
            while (!state.IsTerminal)
            {
                long before = GC.GetAllocatedBytesForCurrentThread();
                int p = state.CurrentPlayer;
                int n = state.LegalActions(legal);
                state.LegalActionsMask(mask);
                state.ObservationTensor(p, obs);
                state.Returns(returns);
                state.ApplyAction(legal[steps % n]);
                if (steps >= 3) allocated += GC.GetAllocatedBytesForCurrentThread() - before;
                steps++;
            }
            if (allocated != 0) Console.Error.WriteLine("{0}: {1} bytes allocated over {2} steps", id, allocated, steps);
            Check(allocated == 0 && steps > 3, id + ": no allocation per step");
        }
        using (var game = new Game(id))
        using (var state = game.NewInitialState(6))
        {
            var legal = new uint[game.NumDistinctActions];
            int n = state.LegalActions(legal), steps = 0, p = state.CurrentPlayer;
            long allocated = 0;
            while (p != Kassen.Kassen.Terminal)
            {
                long before = GC.GetAllocatedBytesForCurrentThread();
                p = state.ApplyStep(legal[steps % n], legal, out n);
                if (steps >= 3) allocated += GC.GetAllocatedBytesForCurrentThread() - before;
                steps++;
            }
            if (allocated != 0) Console.Error.WriteLine("{0}: ApplyStep allocated {1} bytes over {2} steps", id, allocated, steps);
            Check(allocated == 0 && steps > 3 && n == 0, id + ": no allocation per ApplyStep");
        }
    }

    // A random game stepped with ApplyStep, mirrored by ApplyAction + LegalActions on a clone;
    // the view envelope of the player to act is parsed at every step (to_act.seat, terminal,
    // winners), every seat's at the end (terminal, returns, winners); SVG from state and view.
    static void StepsAndEnvelope(string id)
    {
        using (var game = new Game(id))
        using (var state = game.NewInitialState(21))
        using (var mirror = state.Clone())
        {
            var legal = new uint[game.NumDistinctActions];
            int n = state.LegalActions(legal), p = state.CurrentPlayer, steps = 0;
            bool agree = true, envelope = true;
            rng = 77;
            while (p != Kassen.Kassen.Terminal)
            {
                var view = (Dictionary<string, object>)Json.Parse(state.ViewJson(p));
                var toAct = (Dictionary<string, object>)view["to_act"];
                envelope &= toAct["seat"] is long && (long)toAct["seat"] == p && (bool)view["terminal"] == false
                    && view["winners"] == null && (string)view["game"] == id;
                uint a = legal[(int)(Next() % (ulong)n)];
                p = state.ApplyStep(a, legal, out n);
                mirror.ApplyAction(a);
                agree &= p == mirror.CurrentPlayer && legal.Take(n).SequenceEqual(mirror.LegalActions()) && state.Equals(mirror);
                steps++;
            }
            Check(agree && steps > 0, id + ": ApplyStep agrees with ApplyAction + LegalActions");
            Check(envelope, id + ": envelope to_act.seat is the current player until the end");
            double[] returns = state.Returns();
            double best = returns.Max();
            // The seats with the best return; none on a draw (every return equal).
            var winners = returns.All(r => r == best) ? new List<long>()
                : Enumerable.Range(0, returns.Length).Where(i => returns[i] == best).Select(i => (long)i).ToList();
            for (int seat = Kassen.Kassen.Spectator; seat < game.NumPlayers; seat++)
            {
                var view = (Dictionary<string, object>)Json.Parse(state.ViewJson(seat));
                var got = ((List<object>)view["returns"]).Select(Convert.ToDouble).ToArray();
                Check((bool)view["terminal"] && ((Dictionary<string, object>)view["to_act"])["seat"] == null, id + ": terminal envelope");
                Check(got.SequenceEqual(returns), id + ": envelope returns");
                Check(((List<object>)view["winners"]).Cast<long>().SequenceEqual(winners), id + ": envelope winners");
            }
            Throws(203, () => state.ApplyStep(0, legal, out n), id + ": ApplyStep after the end");
            string svg = state.RenderSvg(0);
            Check(svg.Contains("<svg") && svg == game.RenderViewSvg(state.ViewJson(0)), id + ": SVG of the state and of its view");
            Throws(205, () => state.RenderSvg(99), id + ": SVG of a seat that does not exist");
        }
        using (var game = new Game(id))
        using (var state = game.NewInitialState(5))
        {
            ulong hash = state.StableHash();
            var one = new uint[1];
            int n;
            uint a = state.LegalActions()[0];
            using (var probe = state.Child(a))
            {
                if (probe.LegalActions().Length > 1)
                {
                    Throws(Kassen.Kassen.StatusBufferTooSmall, () => state.ApplyStep(a, one, out n), id + ": ApplyStep into a short buffer");
                    Check(state.StableHash() == hash, id + ": ApplyStep into a short buffer leaves the state");
                }
            }
        }
    }

    // Two envs stepped by their lowest legal action until env 0 ends an episode, which is
    // replayed through a State from Batch.EpisodeSeed (same length and returns); Step
    // allocates nothing; rejected steps change nothing.
    static void BatchEpisodes(string id)
    {
        using (var game = new Game(id))
        using (var batch = new Batch(game, "{\"num_envs\": 2, \"seed\": 17, \"obs_dtype\": \"float32\"}"))
        using (var replay = game.NewInitialState(Batch.EpisodeSeed(17, 0, 0)))
        {
            Check(batch.NumEnvs == 2 && batch.NumPlayers == game.NumPlayers && batch.NumActions == game.NumDistinctActions
                  && batch.Observations.Length == 2 * game.ObservationLength, id + ": batch sizes");
            batch.Reset();
            var actions = new uint[2];
            bool same = true;
            int steps = 0;
            long allocated = 0;
            bool listed = batch.MaxLegalActions > 0;
            while (true)
            {
                for (int e = 0; e < 2; e++)
                {
                    uint a = 0;
                    while (a + 1 < batch.NumActions && batch.Mask[e * batch.NumActions + (int)a] == 0) a++;
                    actions[e] = a;
                    // The legal-id list is the mask's set entries, in order.
                    int row = e * batch.MaxLegalActions, count = (int)batch.LegalCount[e], k = 0;
                    for (int b = 0; b < batch.NumActions && listed; b++)
                        if (batch.Mask[e * batch.NumActions + b] != 0)
                            listed &= k < count && k < batch.MaxLegalActions && batch.LegalIds[row + k++] == b;
                    listed &= k == count;
                }
                same &= batch.Player[0] == replay.CurrentPlayer && replay.LegalActions()[0] == actions[0];
                replay.ApplyAction(actions[0]);
                long before = GC.GetAllocatedBytesForCurrentThread();
                batch.Step(actions);
                if (steps >= 3) allocated += GC.GetAllocatedBytesForCurrentThread() - before;
                steps++;
                if (batch.Terminated[0] != 0 || steps > 100000) break;
            }
            Check(same && replay.IsTerminal && batch.EpisodeLength[0] == steps, id + ": batch episode replayed by a state");
            double[] returns = replay.Returns();
            Check(Enumerable.Range(0, returns.Length).All(p => batch.FinalReturns[p] == (float)returns[p]), id + ": batch final returns");
            Check(allocated == 0, id + ": Batch.Step allocates nothing");
            Check(listed, id + ": batch legal-id lists match the masks");
            float[] obs = (float[])batch.Observations.Clone();
            Throws(201, () => batch.Step(new uint[] { (uint)batch.NumActions, 0 }), id + ": batch action out of range");
            Throws(5, () => batch.Step(new uint[1]), id + ": batch with too few actions");
            Check(obs.SequenceEqual(batch.Observations), id + ": a rejected batch step writes nothing");
        }
        using (var game = new Game(id))
        using (var floats = new Batch(game, "{\"num_envs\": 3, \"seed\": 4, \"obs_dtype\": \"float32\"}"))
        using (var bytes = new Batch(game, "{\"num_envs\": 3, \"seed\": 4, \"obs_dtype\": \"uint8\"}"))
        {
            floats.Reset();
            bytes.Reset();
            bool rounded = bytes.Observations.Length == 0 && bytes.ObservationsUint8.Length == floats.Observations.Length
                && Enumerable.Range(0, floats.Observations.Length).All(
                    i => bytes.ObservationsUint8[i] == (byte)Math.Round(Math.Min(Math.Max(floats.Observations[i], 0f), 1f) * 255f, MidpointRounding.ToEven));
            Check(rounded, id + ": uint8 batch observations are the rounded float ones");
        }
        using (var game = new Game(id))
        using (var compact = new Batch(game, "{\"num_envs\": 3, \"seed\": 4}"))
        {
            compact.Reset();
            Check(compact.Observations.Length == 0 && compact.ObservationsUint8.Length == 3 * game.CompactLength
                  && game.CompactLength > 0, id + ": a batch observes compact bytes by default");
        }
    }

    // A NUL character inside a string argument is rejected with INVALID_ARGUMENT (5), never cut.
    static void NulRejected(string id)
    {
        const int invalidArgument = 5;
        Check(Kassen.Kassen.StatusInvalidArgument == invalidArgument, "INVALID_ARGUMENT is 5");
        Throws(invalidArgument, () => new Game(id + "\0x"), id + ": NUL in the game id");
        Throws(invalidArgument, () => new Game(id, "{}\0{\"x\": 1}"), id + ": NUL in the config");
        using (var game = new Game(id, "{}"))
        using (var state = game.NewInitialState(3))
        {
            string saved = state.ToJson();
            using (var loaded = State.FromJson(saved)) Check(loaded.Equals(state), id + ": FromJson round trip");
            Throws(invalidArgument, () => State.FromJson(saved + "\0junk"), id + ": NUL after the saved state");
            Throws(invalidArgument, () => game.RenderViewSvg(state.ViewJson(0) + "\0"), id + ": NUL after the view");
        }
    }

    // Game.Id, Name and MaxLegalActions agree with the game's info; MaxLegalActions sizes a
    // buffer that holds every step of a random game.
    static void GameProperties(string id)
    {
        using (var game = new Game(id))
        {
            var info = (Dictionary<string, object>)Json.Parse(game.InfoJson());
            Check(game.Id == id && game.Name == (string)info["name"] && game.Name.Length > 0, id + ": Id and Name");
            Check(game.MaxLegalActions == (long)info["max_legal_actions"] && game.MaxLegalActions > 0 &&
                  game.MaxLegalActions <= game.NumDistinctActions, id + ": MaxLegalActions");
            using (var state = game.NewInitialState(17))
            {
                var legal = new uint[game.MaxLegalActions];
                int n = state.LegalActions(legal);
                rng = 17;
                for (int p = state.CurrentPlayer; p != Kassen.Kassen.Terminal;)
                    p = state.ApplyStep(legal[(int)(Next() % (ulong)n)], legal, out n);
                Check(state.IsTerminal, id + ": a game played with a MaxLegalActions buffer");
            }
        }
    }

    // The built-in bots, random rollouts, the replay page and the information-state key.
    // The search bots by name, their statistics, and the background search (polled, stopped,
    // disposed while it runs).
    static void SearchBots(string id)
    {
        using (var game = new Game(id))
        using (var state = game.NewInitialState(4))
        using (var walker = Bot.Random(2))
        {
            while (!state.IsTerminal && (state.History().Length < 15 || state.LegalActions().Length < 2))
                state.ApplyAction(walker.Choose(state));
            if (state.IsTerminal) return;
            var legal = state.LegalActions();
            using (var a = Bot.FromSpec("ismcts:30", 1))
            using (var b = Bot.FromSpec("ismcts:30", 1))
            {
                Check(a.LastDecisionJson() == "null", id + ": no decision yet");
                uint x = a.Choose(state);
                Check(x == b.Choose(state) && Array.IndexOf(legal, x) >= 0, id + ": deterministic legal search choice");
                Check(a.LastDecisionJson().Contains("\"candidates\""), id + ": decision statistics");
            }
            Check(Bot.SpecsJson().Contains("ismcts:hard"), "bot specs");
            Throws(101, () => Bot.FromSpec("ismcts:extreme", 1), id + ": unknown bot");
            using (var bounded = Search.Start(state, "{\"iterations\": 30, \"time_ms\": null}", 1))
            using (var twin = Search.Start(state, "{\"iterations\": 30, \"time_ms\": null}", 1))
            {
                uint y = bounded.Wait();
                Check(y == twin.Wait() && bounded.Poll().Done == 1 && Array.IndexOf(legal, y) >= 0, id + ": bounded search");
                Check(bounded.ResultJson().Contains("\"iterations\":30"), id + ": search result json");
                Check(bounded.ResultJson().Contains("\"reason\":\""), id + ": search result explains its candidates");
            }
            using (var open = Search.Start(state, "{\"iterations\": null, \"time_ms\": 60000, \"threads\": 2}", 2))
            {
                Check(open.Poll().Done == 0, id + ": running");
                open.Stop();
                uint z = open.Wait();
                Check(Array.IndexOf(legal, z) >= 0 && open.Poll().BestAction == z, id + ": stopped search");
            }
            using (var dropped = Search.Start(state, "{\"level\": \"hard\"}", 3)) { }
            Throws(101, () => Search.Start(state, "{\"threads\": 0}", 1), id + ": bad search parameters");
        }
    }

    static void BotsRolloutsReplayInfoState(string id)
    {
        using (var game = new Game(id))
        using (var state = game.NewInitialState(23))
        using (var random = Bot.Random(5))
        using (var again = Bot.Random(5))
        using (var montecarlo = Bot.MonteCarlo(5, 2))
        {
            // Two bots of one seed choose alike; the state is never changed by a choice.
            bool same = true, legal = true;
            int steps = 0;
            while (!state.IsTerminal && steps < 400)
            {
                ulong before = state.StableHash();
                uint a = random.Choose(state), b = again.Choose(state);
                same &= a == b && state.StableHash() == before;
                legal &= state.CurrentPlayer == Kassen.Kassen.Chance || Array.IndexOf(state.LegalActions(), a) >= 0;
                if (steps == 3)
                {
                    uint m = montecarlo.Choose(state);
                    Check(Array.IndexOf(state.LegalActions(), m) >= 0, id + ": the Monte Carlo bot picks a legal action");
                }
                state.ApplyAction(a);
                steps++;
            }
            Check(same && legal && steps > 0, id + ": random bots of one seed agree and pick legal actions");
            Throws(5, () => Bot.MonteCarlo(1, 0), id + ": Monte Carlo bot with 0 playouts");
            Check(Throws<ArgumentNullException>(() => random.Choose(null)), id + ": Choose(null)");

            // Rollouts: deterministic, n rows of returns, the state unchanged.
            using (var fresh = game.NewInitialState(29))
            {
                ulong hash = fresh.StableHash();
                double[] r1 = fresh.RandomRollouts(99, 3), r2 = fresh.RandomRollouts(99, 3);
                Check(r1.Length == 3 * game.NumPlayers && r1.SequenceEqual(r2) && fresh.StableHash() == hash,
                      id + ": random rollouts are deterministic and leave the state unchanged");
                var small = new double[game.NumPlayers];
                Throws(Kassen.Kassen.StatusBufferTooSmall, () => fresh.RandomRollouts(99, 2, small), id + ": rollouts into a small buffer");
                Check(fresh.RandomRollouts(99, 1, small) == game.NumPlayers && small.SequenceEqual(r1.Take(game.NumPlayers)),
                      id + ": one rollout into a caller buffer is the first row");

                // The information-state key: a clone has the key, the spectator's differs from a seat's
                // once the seat has seen private events or not; the JSON names the player.
                using (var copy = fresh.Clone())
                    Check(copy.InfoStateKey(0) == fresh.InfoStateKey(0), id + ": a clone has the same information-state key");
                var infoState = (Dictionary<string, object>)Json.Parse(fresh.InfoStateJson(0));
                Check((long)infoState["player"] == 0 && infoState.ContainsKey("events"), id + ": information state JSON");
                Throws(205, () => fresh.InfoStateKey(game.NumPlayers), id + ": information-state key of a seat the game does not have");
                uint first = fresh.LegalActions()[0];
                using (var child = fresh.Child(first))
                    Check(child.InfoStateKey(0) != fresh.InfoStateKey(0), id + ": a step changes the information-state key");
            }

            string page = state.ReplayHtml(0);
            Check(page.StartsWith("<!doctype html>") && page.Contains("replay-data"), id + ": replay page");
            Throws(205, () => state.ReplayHtml(-2), id + ": replay of an invalid player");
            if (state.IsTerminal) Throws(203, () => random.Choose(state), id + ": a bot on a finished game");
        }
    }

    static bool Throws<T>(Action call) where T : Exception
    {
        try { call(); return false; }
        catch (T) { return true; }
    }

    // Json.Serialize writes what Json.Parse reads: the game list round-trips, a config built in
    // C# makes a game, and strings and numbers survive.
    static void JsonWriter()
    {
        string games = Kassen.Kassen.GamesJson();
        object parsed = Json.Parse(games);
        string written = Json.Serialize(parsed);
        Check(Json.Serialize(Json.Parse(written)) == written, "json: the game list round-trips");
        int made = 0;
        foreach (Dictionary<string, object> info in (List<object>)parsed)
        {
            foreach (Dictionary<string, object> config in (List<object>)info["configs"])
            {
                var changed = new Dictionary<string, object>(config);
                using (var game = new Game((string)info["id"], Json.Serialize(changed)))
                    made += game.Id == (string)info["id"] ? 1 : 0;
            }
        }
        Check(made > 0, "json: configs from GamesJson, serialized, make games");
        var config2 = new Dictionary<string, object> { { "players", 3 } };
        using (var game = new Game("samurai", Json.Serialize(config2))) Check(game.NumPlayers == 3, "json: a config built in C#");
        var tricky = new Dictionary<string, object>
        {
            { "s", "quote \" backslash \\ newline \n tab \t nul \u0000 é 漢" },
            { "n", new List<object> { 1L, -2L, 0.5, 1e300, 3.0, (int)7, (uint)8, (byte)9, 2.5f, long.MinValue, ulong.MaxValue } },
            { "b", new object[] { true, false, null } },
            { "o", new Dictionary<string, object>() },
        };
        string text = Json.Serialize(tricky);
        var back = (Dictionary<string, object>)Json.Parse(text);
        Check((string)back["s"] == (string)tricky["s"], "json: string escapes round-trip");
        var numbers = (List<object>)back["n"];
        Check((long)numbers[0] == 1 && (long)numbers[1] == -2 && (double)numbers[2] == 0.5 && (double)numbers[3] == 1e300 &&
              (double)numbers[4] == 3.0 && (long)numbers[5] == 7 && (long)numbers[6] == 8 && (long)numbers[7] == 9 &&
              (double)numbers[8] == 2.5 && (long)numbers[9] == long.MinValue, "json: numbers round-trip (doubles stay doubles)");
        Check(text.Contains("18446744073709551615"), "json: ulong written in full");
        Check(Json.Serialize(back["b"]) == "[true,false,null]" && Json.Serialize(back["o"]) == "{}", "json: literals, empty object");
        Check(Throws<ArgumentException>(() => Json.Serialize(double.NaN)), "json: NaN rejected");
        Check(Throws<ArgumentException>(() => Json.Serialize(new Dictionary<int, int> { { 1, 2 } })), "json: non-string keys rejected");
        Check(Throws<ArgumentException>(() => Json.Serialize(new object())), "json: unknown types rejected");
    }

    static void Golden(string path)
    {
        int files = 0;
        foreach (var line in File.ReadAllLines(path))
        {
            var f = line.Split('\t');
            using (var game = new Game(f[0], f[1]))
            using (var state = game.NewInitialState(ulong.Parse(f[2])))
            {
                foreach (var a in f[4].Split(',')) state.ApplyAction(uint.Parse(a));
                bool same = state.IsTerminal && state.StableHash().ToString() == f[3];
                if (!same) Console.Error.WriteLine("golden {0} {1} seed {2}: hash {3}, recorded {4}", f[0], f[1], f[2], state.StableHash(), f[3]);
                Check(same, "golden hash");
            }
            files++;
        }
        Check(files > 0, "golden playthroughs exist");
        Console.WriteLine("golden: {0} playthroughs replayed", files);
    }

    // Constructed positions (docs/positions.md): a position taken along a random game loads
    // (State.FromPosition, Game.LoadPosition), round-trips, plays to the end with a save and
    // reload half-way (the save records the position), draws; broken documents throw their codes.
    static void Positions(string id, string otherId)
    {
        using (var game = new Game(id))
        using (var s = game.NewInitialState(5))
        {
            ulong rng = 23;
            for (int i = 0; i < 25 && !s.IsTerminal; i++)
            {
                var legal = s.LegalActions();
                s.ApplyAction(legal[(int)(Xorshift(ref rng) % (ulong)legal.Length)]);
            }
            string doc = s.ToPositionJson();
            Check(doc.Contains("\"format\":\"kassen-position-1\""), id + ": position format");
            var p = State.FromPosition(doc);
            Check(p.StartedAtPosition && !s.StartedAtPosition, id + ": started at a position");
            Check(p.History().Length == 0, id + ": no history before the position");
            Check(p.CurrentPlayer == s.CurrentPlayer && Same(p.LegalActions(), s.LegalActions()), id + ": same decision");
            Check(p.ToPositionJson() == doc, id + ": position round trip");
            using (var q = game.LoadPosition(doc)) Check(q.Equals(p), id + ": LoadPosition = FromPosition");
            string named = s.ToNamedPositionJson();
            Check(named.Contains("\"format\":\"kassen-position-named-1\""), id + ": named position format");
            using (var q = State.FromPosition(named)) Check(q.Equals(p), id + ": named position loads back");
            int steps = 0;
            while (!p.IsTerminal)
            {
                var legal = p.LegalActions();
                p.ApplyAction(legal[(int)(Xorshift(ref rng) % (ulong)legal.Length)]);
                if (++steps == 5)
                {
                    string save = p.ToJson();
                    Check(save.Contains("\"position\":{"), id + ": the save records the position");
                    var back = State.FromJson(save);
                    Check(back.Equals(p), id + ": reloaded save");
                    p.Dispose();
                    p = back;
                }
            }
            Check(p.RenderSvg(Kassen.Kassen.Spectator).StartsWith("<svg"), id + ": svg");
            p.Dispose();
            Throws(300, () => State.FromPosition("{"), id + ": malformed position");
            Throws(306, () => State.FromPosition(doc.Substring(0, doc.Length - 1) + ",\"extra\":1}"), id + ": unknown field");
            using (var other = new Game(otherId))
            {
                if (otherId != id) Throws(6, () => other.LoadPosition(doc), id + ": another game's position");
            }
        }
    }

    // Every position file of the repository (core/src/games/<id>/positions/*.json, scenarios of
    // the rule tests) loads, round-trips as a position and plays to the end.
    static int PositionFiles(string root, string id)
    {
        string dir = Path.Combine(root, "core", "src", "games", id, "positions");
        if (!Directory.Exists(dir)) return 0;
        int n = 0;
        ulong rng = 31;
        foreach (var path in Directory.GetFiles(dir, "*.json").OrderBy(x => x, StringComparer.Ordinal))
        {
            n++;
            var p = State.FromPosition(File.ReadAllText(path));
            Check(p.StartedAtPosition, path + ": started at a position");
            // Equal as positions: a file may stop at a chance node, which loading resolves.
            string doc = p.ToPositionJson();
            using (var q = State.FromPosition(doc)) Check(q.ToPositionJson() == doc, path + ": position round trip");
            while (!p.IsTerminal)
            {
                var legal = p.LegalActions();
                p.ApplyAction(legal[(int)(Xorshift(ref rng) % (ulong)legal.Length)]);
            }
            Check(p.Returns().Length == p.Game.NumPlayers, path + ": played to the end");
            p.Dispose();
        }
        return n;
    }

    static ulong Xorshift(ref ulong s)
    {
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        return s * 2685821657736338717UL;
    }

    static bool Same(uint[] a, uint[] b)
    {
        if (a.Length != b.Length) return false;
        for (int i = 0; i < a.Length; i++) if (a[i] != b[i]) return false;
        return true;
    }

    static int Main(string[] args)
    {
        Check(Kassen.Kassen.LibraryAbiVersion() == Kassen.Kassen.AbiVersion, "ABI version");
        Kassen.Kassen.CheckLibrary();
        var package = (Dictionary<string, object>)Json.Parse(File.ReadAllText(args[1]));
        Check((string)package["version"] == Kassen.Kassen.Version(), "package.json version is the library's");
        Check(Kassen.Kassen.StatusName(200) == "KASSEN_STATUS_ILLEGAL_ACTION", "status name");
        Check(((Dictionary<string, object>)Json.Parse("{\"a\":[1,-2.5e1,\"\\u00e9\\n\",true,null]}")).Count == 1, "json reader");
        var ids = GameIds();
        Check(ids.Count >= 4, "registered games");
        foreach (var id in ids)
        {
            try
            {
                Play(id, false, 11);
                Play(id, true, 12);
                Errors(id);
                NoAllocationPerStep(id);
                StepsAndEnvelope(id);
                NulRejected(id);
                BatchEpisodes(id);
                GameProperties(id);
                BotsRolloutsReplayInfoState(id);
                SearchBots(id);
                Positions(id, ids[(ids.IndexOf(id) + 1) % ids.Count]);
            }
            catch (Exception e)
            {
                failed++;
                Console.Error.WriteLine(id + ": unexpected " + e);
            }
        }
        try
        {
            string root = Path.GetFullPath(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(args[1])), "..", ".."));
            int files = ids.Sum(id => PositionFiles(root, id));
            Check(files > 0, "position files exist");
            Console.WriteLine("positions: {0} files played", files);
        }
        catch (Exception e) { failed++; Console.Error.WriteLine("position files: unexpected " + e); }
        try { JsonWriter(); }
        catch (Exception e) { failed++; Console.Error.WriteLine("json: unexpected " + e); }
        try { Golden(args[0]); }
        catch (Exception e) { failed++; Console.Error.WriteLine("golden: unexpected " + e); }
        Console.WriteLine("{0} passed, {1} failed", passed, failed);
        return failed == 0 ? 0 : 1;
    }
}
