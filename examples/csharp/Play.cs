// Plays one random game of every registered game through the C# binding and prints the returns.
using System;
using System.Collections.Generic;
using Kassen;

static class Play
{
    static int Main()
    {
        Kassen.Kassen.CheckLibrary();  // throws if the native library has another ABI
        var random = new Random(7);
        foreach (Dictionary<string, object> info in (List<object>)Json.Parse(Kassen.Kassen.GamesJson()))
        {
            var id = (string)info["id"];
            using (var game = new Game(id))
            using (var state = game.NewInitialState(42))
            {
                var legal = new uint[game.NumDistinctActions];  // reused: no allocation per step
                int n = state.LegalActions(legal);
                for (int p = state.CurrentPlayer; p != Kassen.Kassen.Terminal;)
                    p = state.ApplyStep(legal[random.Next(n)], legal, out n);
                Console.WriteLine(id + ": " + string.Join(" ", state.Returns()));
            }
        }
        return 0;
    }
}
