// This file holds data made once from the JSON of the classic, party, maniac and
// sport presets' rules and of the state of one finished 10-player sport game played
// by bots. Never edit or regenerate it: it is part of the stored format (see
// codec.go), and TestCodecDictFrozen pins its hash.

package service

// codecDict primes deflate with what every game's JSON contains: the field names,
// the rules block of each preset, players and events. It is part of the stored
// format: changing it makes every stored game unreadable, so a new dictionary
// needs a new format byte (and decode keeping the old one).
var codecDict = []byte("" +
	`{"preset":"maniac","minPlayers":10,"maxPlayers":10,"mafia":0,"mafiaFormula":"classic","don":true,"sh` +
	`eriff":true,"doctor":true,"lover":false,"advocate":false,"cinderella":false,"maniac":true,"openRoles` +
	`":true,"win":"parity","lastPairMafia":false,"drawSeats":false,"mafiaKill":"don","firstNightMeeting":` +
	`true,"introRound":true,"voting":"anyone","nominationsPerSpeech":1,"maxNominees":0,"nomineeDefence":f` +
	`alse,"day1SingleNomineeStays":false,"nonVoters":"abstain","ties":"justify","tieRepeats":1,"fourLeftN` +
	`oRevote":false,"halfVote":false,"lastWords":"town_night","commissar":"check_or_shoot","testament":fa` +
	`lse,"testamentKills":false,"revealAfter":0,"doubleDeath":false,"donChecks":true,"doctorVictims":true` +
	`,"doctorOncePerPlayer":true,"doctorNamesPatient":false,"maniacSide":"alone","warningsToMute":0,"warn` +
	`ingsToRemove":0,"extraSpeech":30,"speech":60,"defence":60,"lastWord":30,"intro":30,"night":60,"vote"` +
	`:30}{"preset":"party","minPlayers":9,"maxPlayers":30,"mafia":0,"mafiaFormula":"party","don":false,"s` +
	`heriff":true,"doctor":false,"lover":false,"advocate":true,"cinderella":true,"maniac":false,"openRole` +
	`s":true,"win":"elimination","lastPairMafia":true,"drawSeats":false,"mafiaKill":"majority","firstNigh` +
	`tMeeting":true,"introRound":false,"voting":"nominees","nominationsPerSpeech":1,"maxNominees":3,"nomi` +
	`neeDefence":true,"day1SingleNomineeStays":false,"nonVoters":"abstain","ties":"revote","tieRepeats":2` +
	`,"fourLeftNoRevote":false,"halfVote":false,"lastWords":"all","commissar":"public","testament":false,` +
	`"testamentKills":false,"revealAfter":1,"doubleDeath":true,"donChecks":false,"doctorVictims":false,"d` +
	`octorOncePerPlayer":false,"doctorNamesPatient":false,"maniacSide":"alone","warningsToMute":0,"warnin` +
	`gsToRemove":0,"extraSpeech":0,"speech":60,"defence":30,"lastWord":60,"intro":30,"night":60,"vote":30` +
	`}{"preset":"classic","minPlayers":5,"maxPlayers":20,"mafia":0,"mafiaFormula":"classic","don":false,"` +
	`sheriff":true,"doctor":false,"lover":false,"advocate":false,"cinderella":false,"maniac":false,"openR` +
	`oles":true,"win":"elimination","lastPairMafia":false,"drawSeats":false,"mafiaKill":"majority","first` +
	`NightMeeting":true,"introRound":false,"voting":"anyone","nominationsPerSpeech":1,"maxNominees":0,"no` +
	`mineeDefence":false,"day1SingleNomineeStays":false,"nonVoters":"abstain","ties":"revote","tieRepeats` +
	`":1,"fourLeftNoRevote":false,"halfVote":false,"lastWords":"sheriff_night","commissar":"check","testa` +
	`ment":true,"testamentKills":false,"revealAfter":0,"doubleDeath":false,"donChecks":false,"doctorVicti` +
	`ms":false,"doctorOncePerPlayer":false,"doctorNamesPatient":false,"maniacSide":"alone","warningsToMut` +
	`e":0,"warningsToRemove":0,"extraSpeech":0,"speech":60,"defence":30,"lastWord":60,"intro":30,"night":` +
	`60,"vote":30}{"preset":"sport","minPlayers":10,"maxPlayers":10,"mafia":0,"mafiaFormula":"classic","d` +
	`on":true,"sheriff":true,"doctor":false,"lover":false,"advocate":false,"cinderella":false,"maniac":fa` +
	`lse,"openRoles":false,"win":"parity","lastPairMafia":false,"drawSeats":true,"mafiaKill":"unanimous",` +
	`"firstNightMeeting":true,"introRound":false,"voting":"nominees","nominationsPerSpeech":1,"maxNominee` +
	`s":0,"nomineeDefence":false,"day1SingleNomineeStays":true,"nonVoters":"last_nominee","ties":"car_cra` +
	`sh","tieRepeats":1,"fourLeftNoRevote":true,"halfVote":false,"lastWords":"all","commissar":"check","t` +
	`estament":false,"testamentKills":false,"revealAfter":0,"doubleDeath":false,"donChecks":true,"doctorV` +
	`ictims":false,"doctorOncePerPlayer":false,"doctorNamesPatient":false,"maniacSide":"alone","warningsT` +
	`oMute":3,"warningsToRemove":4,"extraSpeech":0,"speech":60,"defence":30,"lastWord":60,"intro":30,"nig` +
	`ht":60,"vote":30}{"code":"3GTBX9","rules":{"preset":"sport","minPlayers":10,"maxPlayers":10,"mafia":` +
	`0,"mafiaFormula":"classic","don":true,"sheriff":true,"doctor":false,"lover":false,"advocate":false,"` +
	`cinderella":false,"maniac":false,"openRoles":false,"win":"parity","lastPairMafia":false,"drawSeats":` +
	`true,"mafiaKill":"unanimous","firstNightMeeting":true,"introRound":false,"voting":"nominees","nomina` +
	`tionsPerSpeech":1,"maxNominees":0,"nomineeDefence":false,"day1SingleNomineeStays":true,"nonVoters":"` +
	`last_nominee","ties":"car_crash","tieRepeats":1,"fourLeftNoRevote":true,"halfVote":false,"lastWords"` +
	`:"all","commissar":"check","testament":false,"testamentKills":false,"revealAfter":0,"doubleDeath":fa` +
	`lse,"donChecks":true,"doctorVictims":false,"doctorOncePerPlayer":false,"doctorNamesPatient":false,"m` +
	`aniacSide":"alone","warningsToMute":3,"warningsToRemove":4,"extraSpeech":0,"speech":60,"defence":30,` +
	`"lastWord":60,"intro":30,"night":60,"vote":30},"moderator":"app","lang":"en","players":[{"id":"p5","` +
	`name":"Player 5","seat":1,"role":"mafia","alive":false},{"id":"p7","name":"Player 7","seat":2,"role"` +
	`:"citizen","alive":false},{"id":"p2","name":"Player 2","seat":3,"role":"citizen","alive":false},{"id` +
	`":"p10","name":"Player 10","seat":4,"role":"citizen","alive":false},{"id":"p8","name":"Player 8","se` +
	`at":5,"role":"mafia","alive":false},{"id":"p6","name":"Player 6","seat":6,"role":"citizen","alive":f` +
	`alse},{"id":"p1","name":"Player 1","seat":7,"role":"citizen","alive":false},{"id":"p4","name":"Playe` +
	`r 4","seat":8,"role":"sheriff","alive":false,"checks":[{"night":2,"target":"p7","kind":"black","yes"` +
	`:false},{"night":3,"target":"p10","kind":"black","yes":false},{"night":4,"target":"p6","kind":"black` +
	`","yes":false},{"night":5,"target":"p9","kind":"black","yes":false}]},{"id":"p9","name":"Player 9","` +
	`seat":9,"role":"citizen","alive":true},{"id":"p3","name":"Player 3","seat":10,"role":"don","alive":t` +
	`rue,"checks":[{"night":2,"target":"p7","kind":"sheriff","yes":false},{"night":3,"target":"p10","kind` +
	`":"sheriff","yes":false},{"night":4,"target":"p6","kind":"sheriff","yes":false},{"night":5,"target":` +
	`"p4","kind":"sheriff","yes":true}]}],"nextId":10,"phase":{"name":"game_over"},"day":4,"night":5,"win` +
	`ner":"mafia","events":[{"type":"joined","target":"p1"},{"type":"joined","target":"p2"},{"type":"join` +
	`ed","target":"p3"},{"type":"joined","target":"p4"},{"type":"joined","target":"p5"},{"type":"joined",` +
	`"target":"p6"},{"type":"joined","target":"p7"},{"type":"joined","target":"p8"},{"type":"joined","tar` +
	`get":"p9"},{"type":"joined","target":"p10"},{"type":"started"},{"night":1,"type":"night_fell"},{"nig` +
	`ht":1,"type":"morning"},{"day":1,"night":1,"type":"day_began"},{"day":1,"night":1,"type":"nominated"` +
	`,"actor":"p5","target":"p5"},{"day":1,"night":1,"type":"nominated","actor":"p7","target":"p7"},{"day` +
	`":1,"night":1,"type":"nominated","actor":"p2","target":"p2"},{"day":1,"night":1,"type":"nominated","` +
	`actor":"p10","target":"p10"},{"day":1,"night":1,"type":"nominated","actor":"p8","target":"p8"},{"day` +
	`":1,"night":1,"type":"nominated","actor":"p6","target":"p6"},{"day":1,"night":1,"type":"nominated","` +
	`actor":"p1","target":"p1"},{"day":1,"night":1,"type":"nominated","actor":"p4","target":"p4"},{"day":` +
	`1,"night":1,"type":"nominated","actor":"p9","target":"p9"},{"day":1,"night":1,"type":"nominated","ac` +
	`tor":"p3","target":"p3"},{"day":1,"night":1,"type":"vote_result","ballots":[{"voter":"p4","target":"` +
	`p5"},{"voter":"p5","target":"p5"},{"voter":"p6","target":"p5"},{"voter":"p7","target":"p5"},{"voter"` +
	`:"p8","target":"p5"},{"voter":"p9","target":"p5"},{"voter":"p10","target":"p5"},{"voter":"p1","targe` +
	`t":"p5"},{"voter":"p2","target":"p5"},{"voter":"p3","target":"p5"}]},{"day":1,"night":1,"type":"elim` +
	`inated","target":"p5","result":"vote"},{"day":1,"night":2,"type":"night_fell"},{"day":1,"night":2,"t` +
	`ype":"act","actor":"p8","target":"p7","result":"kill","to":"mod"},{"day":1,"night":2,"type":"shot","` +
	`actor":"p8","target":"p7","to":"mafia"},{"day":1,"night":2,"type":"act","actor":"p3","target":"p7","` +
	`result":"kill","to":"mod"},{"day":1,"night":2,"type":"shot","actor":"p3","target":"p7","to":"mafia"}` +
	`,{"day":1,"night":2,"type":"act","actor":"p4","target":"p7","result":"check","to":"mod"},{"day":1,"n` +
	`ight":2,"type":"checked","actor":"p4","target":"p7","result":"red","to":"p4"},{"day":1,"night":2,"ty` +
	`pe":"act","actor":"p3","target":"p7","result":"check","to":"mod"},{"day":1,"night":2,"type":"checked` +
	`","actor":"p3","target":"p7","result":"not_sheriff","to":"p3"},{"day":1,"night":2,"type":"morning"},` +
	`{"day":1,"night":2,"type":"killed","target":"p7"},{"day":2,"night":2,"type":"day_began"},{"day":2,"n` +
	`ight":2,"type":"nominated","actor":"p2","target":"p2"},{"day":2,"night":2,"type":"nominated","actor"` +
	`:"p10","target":"p10"},{"day":2,"night":2,"type":"nominated","actor":"p8","target":"p8"},{"day":2,"n` +
	`ight":2,"type":"nominated","actor":"p6","target":"p6"},{"day":2,"night":2,"type":"nominated","actor"` +
	`:"p1","target":"p1"},{"day":2,"night":2,"type":"nominated","actor":"p4","target":"p4"},{"day":2,"nig` +
	`ht":2,"type":"nominated","actor":"p9","target":"p9"},{"day":2,"night":2,"type":"nominated","actor":"` +
	`p3","target":"p3"},{"day":2,"night":2,"type":"vote_result","ballots":[{"voter":"p4","target":"p2"},{` +
	`"voter":"p6","target":"p2"},{"voter":"p8","target":"p2"},{"voter":"p9","target":"p2"},{"voter":"p10"` +
	`,"target":"p2"},{"voter":"p1","target":"p2"},{"voter":"p2","target":"p2"},{"voter":"p3","target":"p2` +
	`"}]},{"day":2,"night":2,"type":"eliminated","target":"p2","result":"vote"},{"day":2,"night":3,"type"` +
	`:"night_fell"},{"day":2,"night":3,"type":"act","actor":"p3","target":"p10","result":"kill","to":"mod` +
	`"},{"day":2,"night":3,"type":"shot","actor":"p3","target":"p10","to":"mafia"},{"day":2,"night":3,"ty` +
	`pe":"act","actor":"p4","target":"p10","result":"check","to":"mod"},{"day":2,"night":3,"type":"checke` +
	`d","actor":"p4","target":"p10","result":"red","to":"p4"},{"day":2,"night":3,"type":"act","actor":"p8` +
	`","target":"p10","result":"kill","to":"mod"},{"day":2,"night":3,"type":"shot","actor":"p8","target":` +
	`"p10","to":"mafia"},{"day":2,"night":3,"type":"act","actor":"p3","target":"p10","result":"check","to` +
	`":"mod"},{"day":2,"night":3,"type":"checked","actor":"p3","target":"p10","result":"not_sheriff","to"` +
	`:"p3"},{"day":2,"night":3,"type":"morning"},{"day":2,"night":3,"type":"killed","target":"p10"},{"day` +
	`":3,"night":3,"type":"day_began"},{"day":3,"night":3,"type":"nominated","actor":"p8","target":"p8"},` +
	`{"day":3,"night":3,"type":"nominated","actor":"p6","target":"p6"},{"day":3,"night":3,"type":"nominat` +
	`ed","actor":"p1","target":"p1"},{"day":3,"night":3,"type":"nominated","actor":"p4","target":"p4"},{"` +
	`day":3,"night":3,"type":"nominated","actor":"p9","target":"p9"},{"day":3,"night":3,"type":"nominated` +
	`","actor":"p3","target":"p3"},{"day":3,"night":3,"type":"vote_result","ballots":[{"voter":"p4","targ` +
	`et":"p8"},{"voter":"p6","target":"p8"},{"voter":"p8","target":"p8"},{"voter":"p9","target":"p8"},{"v` +
	`oter":"p1","target":"p8"},{"voter":"p3","target":"p8"}]},{"day":3,"night":3,"type":"eliminated","tar` +
	`get":"p8","result":"vote"},{"day":3,"night":4,"type":"night_fell"},{"day":3,"night":4,"type":"act","` +
	`actor":"p3","target":"p6","result":"kill","to":"mod"},{"day":3,"night":4,"type":"shot","actor":"p3",` +
	`"target":"p6","to":"mafia"},{"day":3,"night":4,"type":"act","actor":"p4","target":"p6","result":"che` +
	`ck","to":"mod"},{"day":3,"night":4,"type":"checked","actor":"p4","target":"p6","result":"red","to":"` +
	`p4"},{"day":3,"night":4,"type":"act","actor":"p3","target":"p6","result":"check","to":"mod"},{"day":` +
	`3,"night":4,"type":"checked","actor":"p3","target":"p6","result":"not_sheriff","to":"p3"},{"day":3,"` +
	`night":4,"type":"morning"},{"day":3,"night":4,"type":"killed","target":"p6"},{"day":4,"night":4,"typ` +
	`e":"day_began"},{"day":4,"night":4,"type":"nominated","actor":"p1","target":"p1"},{"day":4,"night":4` +
	`,"type":"nominated","actor":"p4","target":"p4"},{"day":4,"night":4,"type":"nominated","actor":"p9","` +
	`target":"p9"},{"day":4,"night":4,"type":"nominated","actor":"p3","target":"p3"},{"day":4,"night":4,"` +
	`type":"vote_result","ballots":[{"voter":"p4","target":"p1"},{"voter":"p9","target":"p1"},{"voter":"p` +
	`1","target":"p1"},{"voter":"p3","target":"p1"}]},{"day":4,"night":4,"type":"eliminated","target":"p1` +
	`","result":"vote"},{"day":4,"night":5,"type":"night_fell"},{"day":4,"night":5,"type":"act","actor":"` +
	`p3","target":"p4","result":"kill","to":"mod"},{"day":4,"night":5,"type":"shot","actor":"p3","target"` +
	`:"p4","to":"mafia"},{"day":4,"night":5,"type":"act","actor":"p4","target":"p9","result":"check","to"` +
	`:"mod"},{"day":4,"night":5,"type":"checked","actor":"p4","target":"p9","result":"red","to":"p4"},{"d` +
	`ay":4,"night":5,"type":"act","actor":"p3","target":"p4","result":"check","to":"mod"},{"day":4,"night` +
	`":5,"type":"checked","actor":"p3","target":"p4","result":"sheriff","to":"p3"},{"day":4,"night":5,"ty` +
	`pe":"morning"},{"day":4,"night":5,"type":"killed","target":"p4"},{"day":4,"night":5,"type":"game_ove` +
	`r","result":"mafia"}],"created":"2026-11-29T22:40:44.771840549Z","firstSpeaker":"p1"}`)
