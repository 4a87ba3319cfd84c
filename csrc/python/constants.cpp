// Name tables and layout constants exported to Python.
#include "../encode/encode.hpp"
#include "../engine/counter_limits.hpp"
#include "../encode/event_rows.hpp"
#include "../vector/vector_env.hpp"
#include "bindings.hpp"

namespace polyenv::python {

namespace {
template <class Array>
py::tuple names(const Array& a) {
  py::tuple t(a.size());
  for (size_t i = 0; i < a.size(); ++i) t[i] = py::str(a[i]);
  return t;
}
template <class Table>
py::tuple field_names(const Table& table) {
  py::tuple t(table.size());
  for (size_t i = 0; i < table.size(); ++i) t[i] = py::str(table[i].name);
  return t;
}
}  // namespace

void init_constants(py::module_& m) {
  m.attr("UNIT_TYPES") = field_names(kUnits);
  m.attr("TECHS") = field_names(kTechs);
  m.attr("TRIBES") = field_names(kTribes);
  m.attr("BUILDINGS") = field_names(kBuildings);
  m.attr("TERRAINS") = names(kTerrainNames);
  m.attr("RESOURCES") = names(kResourceNames);
  m.attr("ACTION_KINDS") = names(kActionKindNames);
  m.attr("UNIT_STATUSES") = names(kUnitStatusNames);
  m.attr("LEVEL_UP_REWARDS") = names(kRewardNames);
  m.attr("TILE_ACTIONS") = names(kTileActionNames);
  m.attr("MAP_TOKEN_FEATURE_NAMES") = names(kMapTokenFeatureNames);
  m.attr("STATE_FEATURE_NAMES") = names(kStateFeatureNames);
  m.attr("ACTION_FEATURE_NAMES") = names(kActionFeatureNames);
  m.attr("ACTION_ARG_MASK_NAMES") = names(kActionArgMaskNames);
  m.attr("VISIBLE_EVENT_FEATURE_NAMES") = names(kEventFeatureNames);
  m.attr("VISIBLE_EVENT_AFFECTED_FEATURE_NAMES") = names(kEventAffectedFeatureNames);
  m.attr("MIN_MAP_SIZE") = kMinMapSize;
  m.attr("MAX_MAP_SIZE") = kMaxMapSize;
  m.attr("MAX_PLAYERS") = kMaxPlayers;
  m.attr("MAX_STARS") = kMaxStars;
  m.attr("MAX_TURNS") = kMaxTurnLimit;  // the largest max_turns a game accepts
  m.attr("VETERAN_KILLS") = kVeteranKills;  // kills that make a unit a veteran (§5)
  m.attr("MAX_VISIBLE_EVENT_HISTORY") = kMaxEventHistory;
  // The largest values from_bytes accepts for the counters bounded by headroom (counter_limits.hpp).
  py::dict limits;
  limits["next_uid"] = kMaxLoadedNextUid;
  limits["units_sighted"] = kMaxLoadedUnitsSighted;
  limits["actions_applied"] = kMaxLoadedActionsApplied;
  m.attr("LOADABLE_COUNTER_LIMITS") = limits;

  py::dict unit_stats;
  for (size_t i = 0; i < kUnits.size(); ++i) {
    const UnitInfo& u = kUnits[i];
    py::dict d;
    d["cost"] = u.cost; d["max_hp"] = u.max_hp; d["attack"] = u.atk; d["defence"] = u.def;
    d["movement"] = u.mov; d["range"] = u.range; d["points"] = u.points;
    d["tech"] = u.tech >= 0 ? py::object(py::str(kTechs[u.tech].name)) : py::object(py::none());
    unit_stats[py::str(u.name)] = d;
  }
  m.attr("UNIT_STATS") = unit_stats;

  py::dict tech_tree;  // §4: tier and parent of every tech (what a tech-tree view draws)
  for (const TechInfo& t : kTechs) {
    py::dict d;
    d["tier"] = t.tier;
    d["parent"] = t.parent >= 0 ? py::object(py::str(kTechs[t.parent].name)) : py::object(py::none());
    tech_tree[py::str(t.name)] = d;
  }
  m.attr("TECH_TREE") = tech_tree;

  py::dict event_flags;  // bits of the events' "flags" column
  event_flags["kill"] = static_cast<int>(kEventKill);
  event_flags["counter"] = static_cast<int>(kEventCounter);
  event_flags["source_killed"] = static_cast<int>(kEventSourceKilled);
  event_flags["capture"] = static_cast<int>(kEventCapture);
  event_flags["level_up"] = static_cast<int>(kEventLevelUp);
  event_flags["embark"] = static_cast<int>(kEventEmbark);
  event_flags["disembark"] = static_cast<int>(kEventDisembark);
  event_flags["turn_ended"] = static_cast<int>(kEventTurnEnded);
  m.attr("EVENT_FLAGS") = event_flags;
}

void init_errors(py::module_& m) {
  // C++ InvalidArgument -> ValueError (malformed argument).
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InvalidArgument& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    }
  });
  (void)m;
}

}  // namespace polyenv::python
