// policies: several named policies in one run's config: each one's model and
// algo over the run's, written back and read again, seated by the game's
// agent ids; what cannot run refused with the key and the reason.
#include <doctest/doctest.h>

#include <string>

#include "run/config_loader.hpp"
#include "tests/run/config_error_of.hpp"

namespace run = troupe::run;

namespace {

const char* duel_config = R"(run:
  name: duel
env:
  id: ConnectFour-v0
agents:
  count: 5
model:
  hidden: [32]
algo:
  lr: 0.001
policies:
  red:
    agents: [player_0]
  yellow:
    agents: ["*_1"]
    model: {hidden: [16, 16]}
    algo: {kind: ppo, lr: 0.0003}
)";

std::string policies_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return troupe::tests::config_error_of([&] { run::plan_policies(run::load_config_text(text, "duel.yaml", overrides), "duel.yaml"); });
}

}  // namespace

TEST_SUITE("run") {
TEST_CASE("policies: each policy's model and algo keys over the run's, the run's --set for all of them") {
  const run::run_config c = run::load_config_text(duel_config, "duel.yaml", {"model.kind=cnn"});
  REQUIRE(c.policies.size() == 2);
  CHECK(c.policies[0].name == "red");
  CHECK(c.policies[0].model.hidden == std::vector<int>{32});
  CHECK(c.policies[0].algo.lr == doctest::Approx(0.001));
  CHECK(c.policies[0].algo.kind == troupe::algo::algo_kind::a3c);
  CHECK(c.policies[1].name == "yellow");
  CHECK(c.policies[1].model.hidden == std::vector<int>{16, 16});
  CHECK(c.policies[1].algo.lr == doctest::Approx(0.0003));
  // PPO's own default optimiser, as for a run of PPO.
  CHECK(c.policies[1].algo.optimizer == troupe::algo::optimizer_kind::adam);
  CHECK(c.policies[0].algo.optimizer == troupe::algo::optimizer_kind::rmsprop);
  for (const auto& p : c.policies) CHECK(p.model.kind == "cnn");

  // Written out and read back: the same policies.
  const run::run_config back = run::load_config_text(run::to_yaml(c), "written");
  REQUIRE(back.policies.size() == 2);
  CHECK(back.policies[1].agents == std::vector<std::string>{"*_1"});
  CHECK(back.policies[1].model.hidden == std::vector<int>{16, 16});
  CHECK(back.policies[1].algo.kind == troupe::algo::algo_kind::ppo);
  CHECK(back.policies[0].model.hidden == std::vector<int>{32});
  CHECK(run::to_yaml(back) == run::to_yaml(c));
  // One policy's key from the command line.
  const run::run_config one = run::load_config_text(duel_config, "duel.yaml", {"policies.red.algo.lr=0.01"});
  CHECK(one.policies[0].algo.lr == doctest::Approx(0.01));
  CHECK(one.policies[1].algo.lr == doctest::Approx(0.0003));
}

TEST_CASE("policies: seated by the game's agent ids, agents shared out as i mod the policies") {
  const auto plans = run::plan_policies(run::load_config_text(duel_config, "duel.yaml"), "duel.yaml");
  REQUIRE(plans.size() == 2);
  CHECK(plans[0].name == "red");
  CHECK(plans[0].config.env.versus.seat == "first");
  CHECK(plans[1].config.env.versus.seat == "second");
  CHECK(plans[0].config.agents.count == 3);  // agents 0, 2, 4
  CHECK(plans[1].config.agents.count == 2);  // agents 1, 3
  CHECK(plans[1].config.model.hidden == std::vector<int>{16, 16});
  for (const auto& p : plans) CHECK(p.config.policies.empty());
  // Without policies: the run is its one, unnamed policy.
  const auto single = run::plan_policies(run::load_config_text("run: {name: a}\nenv: {id: CartPole-v1}\n", "a"), "a");
  REQUIRE(single.size() == 1);
  CHECK(single[0].name.empty());
  // One policy with both agents keeps env.seat.
  const auto both = run::plan_policies(
      run::load_config_text("run: {name: a}\nenv: {id: ConnectFour-v0, seat: alternate}\npolicies: {me: {agents: [player_*]}}\n", "a"),
      "a");
  REQUIRE(both.size() == 1);
  CHECK(both[0].name == "me");
  CHECK(both[0].config.env.versus.seat == "alternate");
  CHECK(both[0].agents == std::vector<int>{0, 1});
}

TEST_CASE("policies: a turn-based game of three agents, a policy a seat, or one policy drawing among two seats") {
  const std::string nim = "run: {name: a}\nenv: {id: Nim3-v0}\nagents: {count: 3}\n";
  const auto three = run::plan_policies(
      run::load_config_text(nim + "policies: {a: {agents: [player_2]}, b: {agents: [player_0]}, c: {agents: [player_1]}}\n",
                            "a"),
      "a");
  REQUIRE(three.size() == 3);
  CHECK(three[0].config.env.versus.seat == "third");
  CHECK(three[0].agents == std::vector<int>{2});
  CHECK(three[1].config.env.versus.seat == "first");
  CHECK(three[1].agents == std::vector<int>{0});
  CHECK(three[2].config.env.versus.seat == "second");
  for (const auto& p : three) CHECK(p.config.agents.count == 1);
  // Two policies: the second plays player_1 and player_2, one of them drawn
  // per episode (its other one played by its own latest parameters).
  const auto two = run::plan_policies(
      run::load_config_text(nim + "policies: {a: {agents: [player_0]}, b: {agents: [player_1, player_2]}}\n", "a"), "a");
  REQUIRE(two.size() == 2);
  CHECK(two[0].config.env.versus.seat == "first");
  CHECK(two[1].config.env.versus.seat == "alternate");
  CHECK(two[1].config.env.versus.team == std::vector<std::string>{"player_1", "player_2"});
  CHECK(two[1].agents == std::vector<int>{1, 2});
  // Every agent must be someone's.
  CHECK(policies_error(nim + "policies: {a: {agents: [player_0]}, b: {agents: [player_1]}}\n")
            .find("no policy plays the game's agent player_2") != std::string::npos);
}

TEST_CASE("policies: what cannot run is refused, naming the key and why") {
  const std::string base = "run: {name: a}\nenv: {id: ConnectFour-v0}\nagents: {count: 2}\n";
  CHECK(policies_error(base + "policies: {a: {agents: [player_0]}, b: {agents: [player_0]}}\n")
            .find("the game's agent player_0 is already policy 'a''s") != std::string::npos);
  CHECK(policies_error(base + "policies: {a: {agents: [player_0]}, b: {agents: [blue]}}\n")
            .find("key 'policies.b.agents': names none of the game's agents (player_0, player_1)") != std::string::npos);
  CHECK(policies_error("run: {name: a}\nenv: {id: ConnectFour-v0}\nagents: {count: 3}\n"
                       "policies: {a: {agents: [player_0]}, b: {agents: [player_1]}, c: {agents: [player_*]}}\n")
            .find("key 'policies.c.agents': the game's agent player_0 is already policy 'a''s") != std::string::npos);
  CHECK(policies_error(base + "policies: {a: {agents: [player_0]}}\npolicies2: 1\n").find("unknown key") != std::string::npos);
  CHECK(policies_error(base + "policies: {a: {agents: [player_0], lr: 0.1}}\n")
            .find("key 'policies.a.lr': unknown key: a policy has agents, model and algo") != std::string::npos);
  CHECK(policies_error(base + "policies: {a: {model: {hidden: [8]}}}\n").find("policies.a.agents") != std::string::npos);
  CHECK(policies_error(base + "policies: {\"a/b\": {agents: [player_0]}}\n").find("names a folder") != std::string::npos);
  CHECK(policies_error(base + "policies: []\n").find("expected a mapping of policy names") != std::string::npos);
  // {} is no policies: the run's own (and --set 'policies={}' clears a config's).
  CHECK(run::load_config_text(base + "policies: {}\n", "a").policies.empty());
  CHECK(run::load_config_text(base + "policies: {a: {agents: [player_0]}}\n", "a", {"policies={}"}).policies.empty());
  // A bad key of one policy is a config error naming the key and the policy.
  const std::string bad_lr = policies_error(base + "policies: {a: {agents: [player_0], algo: {lr: -1}}}\n");
  CHECK(bad_lr.find("algo.lr") != std::string::npos);
  CHECK(bad_lr.find("(in policy 'a')") != std::string::npos);
  // Several policies: a game, each agent played, one device.
  const std::string two = "policies: {a: {agents: [player_0]}, b: {agents: [player_1]}}\n";
  CHECK(policies_error("run: {name: a}\nenv: {id: CartPole-v1}\n" + two).find("not one") != std::string::npos);
  CHECK(policies_error(base + "policies: {a: {agents: [player_0]}, b: {agents: [player_0]}}\n") != "");
  // A league per policy: two policies of one agent each, each league the
  // other's snapshots.
  CHECK(policies_error(base + two + "selfplay: {enabled: true}\n") == "");
  const std::string nim = "run: {name: a}\nenv: {id: Nim3-v0}\nagents: {count: 3}\nselfplay: {enabled: true}\n";
  CHECK(policies_error(nim + "policies: {a: {agents: [player_0]}, b: {agents: [player_1]}, c: {agents: [player_2]}}\n")
            .find("key 'selfplay.enabled': a league per policy is built for two policies") != std::string::npos);
  CHECK(policies_error(nim + "policies: {a: {agents: [player_0]}, b: {agents: [player_1, player_2]}}\n")
            .find("key 'policies.b.agents': with selfplay.enabled a policy plays one seat, or a team") != std::string::npos);
  // Two teams of a simultaneous game, each a league of the other's snapshots.
  CHECK(policies_error("run: {name: a}\nenv: {id: Contest-v0}\nagents: {count: 2}\nselfplay: {enabled: true}\n"
                       "policies: {red: {agents: [red_*]}, blue: {agents: [blue_*]}}\n") == "");
  CHECK(policies_error(base + two, {"run.deterministic=true"}).find("key 'run.deterministic'") != std::string::npos);
  CHECK(policies_error("run: {name: a}\nenv: {id: ConnectFour-v0}\nagents: {count: 1}\n" + two)
            .find("key 'agents.count': 1 agent for 2 policies") != std::string::npos);
  // A recurrent policy may play another (its state carried across the
  // other seat's moves: agents/league/opponent_states.hpp).
  CHECK(policies_error(base + "policies: {a: {agents: [player_0]}, b: {agents: [player_1], model: {recurrent: {kind: lstm}}}}\n") == "");
  // One policy naming one agent is fine: the other seat is env.opponent's.
  CHECK(policies_error(base + "policies: {a: {agents: [player_1]}}\n") == "");
  CHECK(policies_error(base + two) == "");
}

TEST_CASE("config: selfplay.random_opening, ignored by a simultaneous game, its probability and length in range") {
  const std::string c4 = "run: {name: a}\nenv: {id: ConnectFour-v0}\nagents: {count: 1}\n"
                         "selfplay: {enabled: true, random_opening: {probability: 0.25, max_moves: 2}}\n";
  CHECK(policies_error(c4) == "");
  // The Connect Four config trains DuelPong-v0 too: its openings are ignored there.
  CHECK(policies_error("run: {name: a}\nenv: {id: DuelPong-v0}\nagents: {count: 1}\n"
                       "selfplay: {enabled: true, random_opening: {probability: 0.25}}\n") == "");
  CHECK(policies_error(c4, {"selfplay.random_opening.probability=1.5"}).find("selfplay.random_opening.probability") !=
        std::string::npos);
  CHECK(policies_error(c4, {"selfplay.random_opening.max_moves=0"}).find("selfplay.random_opening.max_moves") !=
        std::string::npos);
}
}
